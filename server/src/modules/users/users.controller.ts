import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { MessageResponseDto } from '../../common/message-response.dto';
import { pageMeta } from '../../common/pagination';
import { AdminUserListResponseDto, AdminUserResponseDto, toAdminUserDto } from './dto/admin-user.dto';
import { ListUsersQueryDto } from './dto/list-users-query.dto';
import { CreateUserDto, UpdateUserDto } from './dto/user-form.dto';
import { UsersService } from './users.service';
import { AdminOnly } from '../../common/admin-only.decorator';
import { IdParam } from '../../common/id-param';

@ApiTags('users')
@AdminOnly()
@Controller('admin/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  /** Lists users with search (name, e-mail), filters, sorting and pagination. */
  @Get()
  async listUsers(@Query() query: ListUsersQueryDto): Promise<AdminUserListResponseDto> {
    const { rows, total, overallTotal, page, limit } = await this.users.list(query);
    return { success: true, data: rows.map(toAdminUserDto), meta: { ...pageMeta(total, page, limit), overall_total: overallTotal } };
  }

  @Get(':id')
  async getUser(@IdParam() id: number): Promise<AdminUserResponseDto> {
    return { success: true, data: toAdminUserDto(await this.users.get(id)) };
  }

  @Post()
  @Audit('user.create', 'Create user', 'user')
  async createUser(@Body() dto: CreateUserDto): Promise<AdminUserResponseDto> {
    return { success: true, message: 'User created successfully!', data: toAdminUserDto(await this.users.create(dto)) };
  }

  /** Updates a user; a blank password keeps the current one. */
  @Put(':id')
  @Audit('user.update', 'Update user', 'user')
  async updateUser(@IdParam() id: number, @Body() dto: UpdateUserDto, @CurrentUser() actor: AuthUser): Promise<AdminUserResponseDto> {
    return { success: true, message: 'User updated successfully!', data: toAdminUserDto(await this.users.update(id, dto, actor)) };
  }

  @Delete(':id')
  @Audit('user.delete', 'Delete user', 'user')
  async deleteUser(@IdParam() id: number, @CurrentUser() actor: AuthUser): Promise<MessageResponseDto> {
    await this.users.remove(id, actor);
    return { success: true, message: 'User deleted successfully!' };
  }

  /** Activates an inactive user or deactivates an active one (ending their sessions). */
  @Post(':id/toggle-status')
  @Audit('user.toggle_status', 'Activate/deactivate user', 'user')
  @HttpCode(200)
  async toggleUserStatus(@IdParam() id: number, @CurrentUser() actor: AuthUser): Promise<AdminUserResponseDto> {
    const user = await this.users.toggleStatus(id, actor);
    return {
      success: true,
      message: user.is_active ? 'User activated successfully!' : 'User deactivated successfully!',
      data: toAdminUserDto(user),
    };
  }

  @Post(':id/verify-email')
  @Audit('user.verify', 'Verify user e-mail', 'user')
  @HttpCode(200)
  async verifyUserEmail(@IdParam() id: number): Promise<AdminUserResponseDto> {
    return { success: true, message: 'User email verified successfully!', data: toAdminUserDto(await this.users.verifyEmail(id)) };
  }
}
