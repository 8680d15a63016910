import { Body, Controller, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/admin-only.decorator';
import { Audit } from '../../common/audit.decorator';
import { IdParam } from '../../common/id-param';
import { ApiEnvelopeResponse, ApiGetResponse } from '../../common/response';
import { ReleaseRolloutDto, ReleaseRolloutResponseDto, SetRolloutDto } from './dto/rollout.dto';
import { RolloutsService } from './rollouts.service';

/** Staged rollouts of releases through the update API (admin-only). */
@ApiTags('updates')
@AdminOnly()
@Controller('admin/versions')
export class RolloutsController {
  constructor(private readonly rollouts: RolloutsService) {}

  /** The release's rollout: its share of servers, whether it is paused, how many servers were offered it and how many report it now. */
  @ApiGetResponse(ReleaseRolloutResponseDto, ':id/rollout')
  getReleaseRollout(@IdParam() id: number): Promise<ReleaseRolloutDto> {
    return this.rollouts.get(id);
  }

  /** Raises or lowers the share, pauses or resumes; finish with 100 and not paused. Local to this portal (no license-server sync). */
  @Put(':id/rollout')
  @Audit('version.rollout', 'Change release rollout', 'version')
  @ApiEnvelopeResponse(ReleaseRolloutResponseDto, { message: 'Rollout updated' })
  setReleaseRollout(@IdParam() id: number, @Body() dto: SetRolloutDto): Promise<ReleaseRolloutDto> {
    return this.rollouts.set(id, dto);
  }
}
