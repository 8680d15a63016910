import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAt, DateTimeColumn, VarcharColumn } from '../../database/columns';

/**
 * An Ed25519 key that signs license files, activation answers and release manifests. The newest key that is not
 * removed signs; the others only verify (listed at GET /api/license-server/public-keys) until an admin removes them.
 */
@Entity('signing_keys')
export class SigningKeyEntity {
  /** Also the order of rotations: the highest live id is the current key. */
  @PrimaryGeneratedColumn()
  id: number;

  /** First 16 hex digits of the SHA-256 of the public key (SPKI DER): names the key inside signed data. */
  @Index('UQ_signing_keys_kid', { unique: true })
  @VarcharColumn(16)
  kid: string;

  /** SubjectPublicKeyInfo in PEM. */
  @Column({ type: 'text' })
  public_key_pem: string;

  /** The PKCS#8 PEM sealed with SecretBox (SIGNING_KEYS_SECRET); null once the key no longer signs. */
  @Column({ type: 'text', nullable: true })
  private_key_sealed: string | null;

  @CreatedAt()
  created_at: Date;

  /** When a newer key took over signing. */
  @DateTimeColumn({ nullable: true })
  retired_at: Date | null;

  /** When an admin removed it: no longer listed nor trusted; the row stays so the same key is never imported again. */
  @DateTimeColumn({ nullable: true })
  removed_at: Date | null;
}
