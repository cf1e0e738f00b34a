/**
 * One-time login links of GET /api/externalLoginUrl (docs/eventor.md#login-links): usable once,
 * for five minutes. Tokens are random (crypto) and never logged; the request log shows `/login/…` only.
 */
import { randomBytes } from 'node:crypto';

export const LOGIN_LIFETIME_MS = 5 * 60 * 1000;

interface Login {
  personId: string;
  displayName: string;
  issuedAt: number;
  used: boolean;
}

export type LoginOutcome = { ok: true; displayName: string } | { ok: false; reason: 'unknown' | 'used' | 'expired' };

export class LoginStore {
  private readonly logins = new Map<string, Login>();

  constructor(private readonly now: () => Date) {}

  issue(personId: string, displayName: string): string {
    const token = randomBytes(24).toString('base64url');
    this.logins.set(token, { personId, displayName, issuedAt: this.now().getTime(), used: false });
    return token;
  }

  redeem(token: string): LoginOutcome {
    const login = this.logins.get(token);
    if (!login) return { ok: false, reason: 'unknown' };
    if (login.used) return { ok: false, reason: 'used' };
    if (this.now().getTime() - login.issuedAt > LOGIN_LIFETIME_MS) {
      this.logins.delete(token);
      return { ok: false, reason: 'expired' };
    }
    login.used = true;
    return { ok: true, displayName: login.displayName };
  }

  get size(): number {
    return this.logins.size;
  }
}
