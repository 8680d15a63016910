import { Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import { AdminDevicesService } from '../devices/admin-devices.service';
import { VersionsService, type VersionEntity } from '../versions/versions.service';
import type { ReleaseRolloutDto, SetRolloutDto } from './dto/rollout.dto';
import { ReleaseOffersRepository } from './release-offers.repository';

const GIVE_ONE = 'Give rollout_percent, rollout_paused or both';

/** Staged rollouts as admins run them: the share of servers, pause and finish, and how far a release reached. */
@Injectable()
export class RolloutsService {
  constructor(
    private readonly versions: VersionsService,
    private readonly devices: AdminDevicesService,
    private readonly offers: ReleaseOffersRepository,
  ) {}

  async get(id: number): Promise<ReleaseRolloutDto> {
    return this.figures(await this.versions.get(id));
  }

  async set(id: number, dto: SetRolloutDto): Promise<ReleaseRolloutDto> {
    if (dto.rollout_percent === undefined && dto.rollout_paused === undefined)
      throw ApiError.badRequest(GIVE_ONE, { rollout_percent: [GIVE_ONE] });
    return this.figures(await this.versions.setRollout(id, dto));
  }

  private async figures(version: VersionEntity): Promise<ReleaseRolloutDto> {
    const [offered, reporting] = await Promise.all([this.offers.count(version.id), this.devices.countReporting(version.version)]);
    return {
      version_id: version.id,
      version: version.version,
      channel: version.channel,
      state: version.state,
      rollout_percent: version.rollout_percent,
      rollout_paused: version.rollout_paused,
      offered,
      reporting,
    };
  }
}
