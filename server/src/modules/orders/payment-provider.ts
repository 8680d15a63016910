/** Injection token of the PaymentProvider that processes orders (chosen by PAYMENT_PROVIDER). */
export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');

export interface PaymentRequest {
  orderId: number;
  amountCents: number;
  currency: string;
  description: string;
  customerEmail: string;
  /** The same for every attempt on one order, so a processor that sees a retry does not charge twice. */
  idempotencyKey: string;
}

export type PaymentResult = { status: 'approved'; reference: string } | { status: 'declined'; reason: string };

/** A payment processor. A real one (Stripe, Adyen, …) goes behind this interface and is selected in configuration. */
export interface PaymentProvider {
  /** Stored on the order, e.g. 'sandbox'. */
  readonly name: string;
  charge(request: PaymentRequest): Promise<PaymentResult>;
}

/** Approves every payment without moving money: for development, demos and tests. Never a real processor. */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox';

  async charge(request: PaymentRequest): Promise<PaymentResult> {
    return { status: 'approved', reference: `sandbox-${request.idempotencyKey}` };
  }
}
