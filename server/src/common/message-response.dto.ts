export class MessageResponseDto {
  success: boolean;
  message: string;
}
