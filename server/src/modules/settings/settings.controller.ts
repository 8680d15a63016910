import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Patch, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/admin-only.decorator';
import { Public } from '../../common/public.decorator';
import { ApiEnvelopeResponse, ApiGetResponse } from '../../common/response';
import {
  AdminSettingsDto,
  AdminSettingsResponseDto,
  PatchSettingDto,
  PublicSettingsDto,
  PublicSettingsResponseDto,
  UpdateSettingsDto,
} from './dto/settings.dto';
import { SettingsService } from './settings.service';

@ApiTags('settings')
@Controller()
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  /** The public settings: test license, pricing, app info and features (no per-user limits, no license-server connection). */
  @Public()
  @ApiGetResponse(PublicSettingsResponseDto, 'settings')
  getPublicSettings(): Promise<PublicSettingsDto> {
    return this.settings.getPublic();
  }

  /** Every settings group; the license-server API token is never returned, only `api_token_set`. */
  @AdminOnly()
  @ApiGetResponse(AdminSettingsResponseDto, 'admin/settings')
  getAdminSettings(): Promise<AdminSettingsDto> {
    return this.settings.getAdmin();
  }

  /** Replaces the whole settings document. Leave out `license_server.api_token` to keep the stored token. */
  @AdminOnly()
  @Put('admin/settings')
  @Audit('settings.update', 'Update settings', 'settings')
  @ApiEnvelopeResponse(AdminSettingsResponseDto, { message: 'Settings saved' })
  updateAdminSettings(@Body() dto: UpdateSettingsDto): Promise<AdminSettingsDto> {
    return this.settings.replace(dto);
  }

  /** Changes one value, e.g. `{key: 'pricing.price_per_device', value: 12}`, within the same bounds as PUT. */
  @AdminOnly()
  @Patch('admin/settings')
  @Audit('settings.update', 'Update setting', 'settings')
  @ApiEnvelopeResponse(AdminSettingsResponseDto, { message: 'Setting saved' })
  patchAdminSetting(@Body() dto: PatchSettingDto): Promise<AdminSettingsDto> {
    return this.settings.patch(dto.key, dto.value);
  }
}
