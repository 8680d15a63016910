import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { createSecretKey } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { UsersModule } from '../users/users.module';
import { AccountController } from './account.controller';
import { AccountService } from './account.service';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { LoginThrottle } from './login-throttle';
import { MfaChallenges } from './mfa-challenges';
import { MfaController } from './mfa.controller';
import { MfaService } from './mfa.service';
import { RecoveryCodeEntity } from './recovery-code.entity';
import { SessionEntity } from './session.entity';
import { SpentMfaChallengeEntity } from './spent-mfa-challenge.entity';
import { UserMfaEntity } from './user-mfa.entity';
import { SessionsService } from './sessions.service';
import { SessionsRepository } from './sessions.repository';
import { UserMfaRepository } from './user-mfa.repository';
import { RecoveryCodesRepository } from './recovery-codes.repository';
import { SpentMfaChallengesRepository } from './spent-mfa-challenges.repository';

@Module({
  imports: [
    TypeOrmModule.forFeature([SessionEntity, UserMfaEntity, RecoveryCodeEntity, SpentMfaChallengeEntity]),
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        // A KeyObject made once: given the secret as a string, jsonwebtoken converts it on every sign and verify
        // (first trying it as a public key), a large share of an authenticated request's CPU.
        const key = createSecretKey(Buffer.from(config.jwt.secret, 'utf8'));
        return { secretOrKeyProvider: () => key };
      },
    }),
    UsersModule,
  ],
  controllers: [AuthController, MfaController, AccountController],
  providers: [
    AuthService,
    AccountService,
    LoginThrottle,
    SessionsService,
    MfaService,
    MfaChallenges,
    SessionsRepository,
    UserMfaRepository,
    RecoveryCodesRepository,
    SpentMfaChallengesRepository,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [SessionsService],
})
export class AuthModule {}
