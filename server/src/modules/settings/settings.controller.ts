import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Get, Patch, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/admin-only.decorator';
import { Public } from '../../common/public.decorator';
import { AdminSettingsResponseDto, PatchSettingDto, PublicSettingsResponseDto, UpdateSettingsDto } from './dto/settings.dto';
import { SettingsService } from './settings.service';

@ApiTags('settings')
@Controller()
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  /** The public settings: test license, pricing, app info and features (no per-user limits, no license-server connection). */
  @Public()
  @Get('settings')
  async getPublicSettings(): Promise<PublicSettingsResponseDto> {
    return { success: true, data: await this.settings.getPublic() };
  }

  /** Every settings group; the license-server API token is never returned, only `api_token_set`. */
  @AdminOnly()
  @Get('admin/settings')
  async getAdminSettings(): Promise<AdminSettingsResponseDto> {
    return { success: true, data: await this.settings.getAdmin() };
  }

  /** Replaces the whole settings document. Leave out `license_server.api_token` to keep the stored token. */
  @AdminOnly()
  @Put('admin/settings')
  @Audit('settings.update', 'Update settings', 'settings')
  async updateAdminSettings(@Body() dto: UpdateSettingsDto): Promise<AdminSettingsResponseDto> {
    return { success: true, message: 'Settings saved', data: await this.settings.replace(dto) };
  }

  /** Changes one value, e.g. `{key: 'pricing.price_per_device', value: 12}`, within the same bounds as PUT. */
  @AdminOnly()
  @Patch('admin/settings')
  @Audit('settings.update', 'Update setting', 'settings')
  async patchAdminSetting(@Body() dto: PatchSettingDto): Promise<AdminSettingsResponseDto> {
    return { success: true, message: 'Setting saved', data: await this.settings.patch(dto.key, dto.value) };
  }
}
