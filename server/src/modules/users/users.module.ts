import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminUsersService } from './admin-users.service';
import { PasswordHasher } from './password-hasher';
import { UserProfileService } from './user-profile.service';
import { UserTrigramsRepository } from './user-trigrams.repository';
import { UserEntity } from './user.entity';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserEntity])],
  controllers: [UsersController],
  providers: [UsersService, UserProfileService, AdminUsersService, UsersRepository, UserTrigramsRepository, PasswordHasher],
  exports: [UsersService, UserProfileService, AdminUsersService, PasswordHasher],
})
export class UsersModule {}
