import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { LicensesModule } from '../licenses/licenses.module';
import { SettingsModule } from '../settings/settings.module';
import { AdminOrdersController } from './admin-orders.controller';
import { LicenseRequestsController } from './license-requests.controller';
import { OrderEntity } from './order.entity';
import { OrdersController } from './orders.controller';
import { OrdersRepository } from './orders.repository';
import { OrdersService } from './orders.service';
import { PAYMENT_PROVIDER, PaymentProvider, SandboxPaymentProvider } from './payment-provider';

/** The configured payment provider; the configuration refuses unknown names at start. */
function paymentProviderFor(config: AppConfig): PaymentProvider {
  switch (config.licensing.paymentProvider) {
    case 'sandbox':
      // Said at every start (production refuses to start on the sandbox unless PAYMENT_PROVIDER names it).
      if (config.env !== 'test') new Logger('Orders').warn('PAYMENT_PROVIDER=sandbox: every order is marked paid without charging anyone');
      return new SandboxPaymentProvider();
  }
}

@Module({
  imports: [TypeOrmModule.forFeature([OrderEntity]), SettingsModule, LicensesModule],
  controllers: [OrdersController, AdminOrdersController, LicenseRequestsController],
  providers: [OrdersService, OrdersRepository, { provide: PAYMENT_PROVIDER, inject: [APP_CONFIG], useFactory: paymentProviderFor }],
  exports: [OrdersService],
})
export class OrdersModule {}
