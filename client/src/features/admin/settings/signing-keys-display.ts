import type { SigningKeyDto } from '../../../api/generated/model';

/** What a row of the Signing keys table says of a key: signs now, or only verifies what it signed before. */
export interface SigningKeyRow {
  kid: string;
  status: 'current' | 'previous';
  createdAt: string;
  retiredAt: string | null;
  /** Only a previous key can be removed: the current one signs. */
  removable: boolean;
}

/** The rows, current key first (the server lists newest first; a key that signs goes on top whatever the order). */
export function signingKeyRows(keys: readonly SigningKeyDto[]): SigningKeyRow[] {
  return [...keys]
    .sort((a, b) => Number(b.current) - Number(a.current))
    .map((key) => ({
      kid: key.kid,
      status: key.current ? 'current' : 'previous',
      createdAt: key.created_at,
      retiredAt: key.retired_at ?? null,
      removable: !key.current,
    }));
}
