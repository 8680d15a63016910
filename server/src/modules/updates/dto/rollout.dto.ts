import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { Envelope } from '../../../common/envelope';
import { CHANNELS, type Channel, VERSION_STATES, type VersionState } from '../../versions/versions.constants';

/** Raise or lower the share, pause or resume; finishing is 100 and not paused. At least one of the two. */
export class SetRolloutDto {
  /** The share of servers offered the release, 0 to 100 (a hash of each server's id decides, so raising it keeps those reached). */
  @IsOptional()
  @IsInt({ message: 'rollout_percent must be a whole number from 0 to 100' })
  @Min(0, { message: 'rollout_percent must be a whole number from 0 to 100' })
  @Max(100, { message: 'rollout_percent must be a whole number from 0 to 100' })
  rollout_percent?: number;

  /** Paused, the release is offered to no server. */
  @IsOptional()
  @IsBoolean()
  rollout_paused?: boolean;
}

/** A release's staged rollout and how far it reached. */
export class ReleaseRolloutDto {
  version_id: number;
  version: string;
  @ApiProperty({ enum: CHANNELS, enumName: 'VersionChannel' })
  channel: Channel;
  @ApiProperty({ enum: VERSION_STATES, enumName: 'VersionState' })
  state: VersionState;
  rollout_percent: number;
  rollout_paused: boolean;
  /** Servers the update API offered it to (each once). */
  offered: number;
  /** Active servers that report running it now. */
  reporting: number;
}

export class ReleaseRolloutResponseDto extends Envelope(ReleaseRolloutDto, { message: 'optional' }) {}
