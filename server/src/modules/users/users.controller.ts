import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Delete, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { MessageResponseDto } from '../../common/message-response.dto';
import { pageMeta } from '../../common/pagination';
import { ApiEnvelopeResponse, ApiGetResponse, pageOf, Reply, withMessage } from '../../common/response';
import { AdminUserDto, AdminUserListResponseDto, AdminUserResponseDto, toAdminUserDto } from './dto/admin-user.dto';
import { ListUsersQueryDto } from './dto/list-users-query.dto';
import { CreateUserDto, UpdateUserDto } from './dto/user-form.dto';
import { AdminUsersService } from './admin-users.service';
import { AdminOnly } from '../../common/admin-only.decorator';
import { IdParam } from '../../common/id-param';

@ApiTags('users')
@AdminOnly()
@Controller('admin/users')
export class UsersController {
  constructor(private readonly users: AdminUsersService) {}

  /** Lists users with search (name, e-mail), filters, sorting and pagination. */
  @ApiGetResponse(AdminUserListResponseDto)
  async listUsers(@Query() query: ListUsersQueryDto): Promise<Reply<AdminUserDto[]>> {
    const { rows, total, overallTotal, page, limit } = await this.users.list(query);
    return pageOf(rows.map(toAdminUserDto), { ...pageMeta(total, page, limit), overall_total: overallTotal });
  }

  @ApiGetResponse(AdminUserResponseDto, ':id')
  async getUser(@IdParam() id: number): Promise<AdminUserDto> {
    return toAdminUserDto(await this.users.get(id));
  }

  @Post()
  @Audit('user.create', 'Create user', 'user')
  @ApiEnvelopeResponse(AdminUserResponseDto, { status: 201, message: 'User created successfully!' })
  async createUser(@Body() dto: CreateUserDto): Promise<AdminUserDto> {
    return toAdminUserDto(await this.users.create(dto));
  }

  /** Updates a user; a blank password keeps the current one. */
  @Put(':id')
  @Audit('user.update', 'Update user', 'user')
  @ApiEnvelopeResponse(AdminUserResponseDto, { message: 'User updated successfully!' })
  async updateUser(@IdParam() id: number, @Body() dto: UpdateUserDto, @CurrentUser() actor: AuthUser): Promise<AdminUserDto> {
    return toAdminUserDto(await this.users.update(id, dto, actor));
  }

  @Delete(':id')
  @Audit('user.delete', 'Delete user', 'user')
  @ApiEnvelopeResponse(MessageResponseDto, { message: 'User deleted successfully!' })
  async deleteUser(@IdParam() id: number, @CurrentUser() actor: AuthUser): Promise<void> {
    await this.users.remove(id, actor);
  }

  /** Activates an inactive user or deactivates an active one (ending their sessions). */
  @Post(':id/toggle-status')
  @Audit('user.toggle_status', 'Activate/deactivate user', 'user')
  @ApiEnvelopeResponse(AdminUserResponseDto)
  async toggleUserStatus(@IdParam() id: number, @CurrentUser() actor: AuthUser): Promise<Reply<AdminUserDto>> {
    const user = await this.users.toggleStatus(id, actor);
    return withMessage(user.is_active ? 'User activated successfully!' : 'User deactivated successfully!', toAdminUserDto(user));
  }

  @Post(':id/verify-email')
  @Audit('user.verify', 'Verify user e-mail', 'user')
  @ApiEnvelopeResponse(AdminUserResponseDto, { message: 'User email verified successfully!' })
  async verifyUserEmail(@IdParam() id: number): Promise<AdminUserDto> {
    return toAdminUserDto(await this.users.verifyEmail(id));
  }
}
