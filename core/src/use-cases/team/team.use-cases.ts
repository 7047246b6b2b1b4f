import type { AuditRecorder } from '../../domain/audit';
import { newId } from '../../domain/ids';
import { normalizeEmail } from '../../domain/sign-in-throttle';
import { USER_ROLES, USER_STATUSES, type User, type UserRole, type UserStatus } from '../../domain/user.entity';
import { CoreError, invalidParameter, notFound } from '../../errors/core-error';
import type { Clock } from '../../ports/clock.port';
import type { DashboardSessionRepository } from '../../ports/dashboard-session.repository.port';
import type { MerchantRepository } from '../../ports/merchant.repository.port';
import type { NoticeOutbox } from '../../ports/notice-outbox.port';
import type { PasswordHasher } from '../../ports/password-hasher.port';
import type { RandomSource } from '../../ports/random-source.port';
import type { UnitOfWork } from '../../ports/unit-of-work.port';
import type { UserRepository } from '../../ports/user.repository.port';
import { PASSWORD_LENGTH } from '../create-merchant/create-merchant.use-case';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const USER_NAME_MAX_LENGTH = 200;

function forbidden(message: string): CoreError {
  return new CoreError('forbidden', 'forbidden', message);
}

/**
 * The team rules beyond the role table: only an owner grants the owner role, takes it away, or
 * changes anything else on an owner's row (disabling an owner, resetting their second factor would
 * otherwise let an admin push every owner out); and nobody changes their own row.
 */
function assertMayChange(actor: User, target: User, newRole?: UserRole): void {
  if (target.id === actor.id) throw forbidden('Nobody changes their own team membership; ask another owner or admin.');
  if ((target.role === 'owner' || newRole === 'owner') && actor.role !== 'owner') {
    throw forbidden('Only an owner may grant the owner role or change an owner.');
  }
}

async function teamMember(users: UserRepository, actor: User, id: string): Promise<User> {
  const user = await users.findById(actor.merchantId, id);
  if (!user) throw notFound('user', id);
  return user;
}

/** GET users: every member of the actor's merchant, oldest first. */
export class ListTeamUsers {
  constructor(private readonly users: UserRepository) {}

  execute(actor: User): Promise<User[]> {
    return this.users.listByMerchant(actor.merchantId);
  }
}

export interface AddTeamUserInput {
  readonly email: string;
  readonly password: string;
  readonly role: UserRole;
  readonly name?: string;
}

/** Adds a member without a second factor; their first call is the MFA claim. */
export class AddTeamUser {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  /** Throws 400 for a bad field, 403 `forbidden` for an owner grant by a non-owner, 409 `email_taken`. */
  async execute(actor: User, input: AddTeamUserInput): Promise<User> {
    const email = normalizeEmail(input.email);
    if (!EMAIL.test(email) || email.length > 254) throw invalidParameter('email', 'email must be an email address.');
    if (input.password.length < PASSWORD_LENGTH.min || input.password.length > PASSWORD_LENGTH.max) {
      throw invalidParameter('password', `password must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters.`);
    }
    if (!USER_ROLES.includes(input.role)) throw invalidParameter('role', `role must be one of ${USER_ROLES.join(', ')}.`);
    const name = input.name?.trim();
    if (name !== undefined && (name.length === 0 || name.length > USER_NAME_MAX_LENGTH)) {
      throw invalidParameter('name', `name must be 1 to ${USER_NAME_MAX_LENGTH} characters.`);
    }
    if (input.role === 'owner' && actor.role !== 'owner') throw forbidden('Only an owner may grant the owner role.');

    const user: User = {
      id: newId(this.random, 'user'),
      merchantId: actor.merchantId,
      email,
      ...(name === undefined ? {} : { name }),
      role: input.role,
      status: 'active',
      passwordHash: await this.passwords.hash(input.password),
      created: this.clock.now(),
    };
    await this.uow.run(async () => {
      await this.users.insert(user);
      await this.audit.record({ merchantId: actor.merchantId, userId: actor.id, action: 'users.write', objectType: 'dashboard_user', objectId: user.id, details: { change: 'created', role: user.role } });
    });
    return user;
  }
}

export interface UpdateTeamUserInput {
  readonly role?: UserRole;
  readonly status?: UserStatus;
}

/** Changes a member's role or status; disabling ends their sessions in the same transaction. */
export class UpdateTeamUser {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly sessions: DashboardSessionRepository,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
  ) {}

  /** Throws 404 for a user of another merchant, 403 `forbidden` for the team rules. */
  execute(actor: User, id: string, input: UpdateTeamUserInput): Promise<User> {
    if (input.role !== undefined && !USER_ROLES.includes(input.role)) throw invalidParameter('role', `role must be one of ${USER_ROLES.join(', ')}.`);
    if (input.status !== undefined && !USER_STATUSES.includes(input.status)) {
      throw invalidParameter('status', `status must be one of ${USER_STATUSES.join(', ')}.`);
    }
    return this.uow.run(async () => {
      const target = await teamMember(this.users, actor, id);
      assertMayChange(actor, target, input.role);
      const updated: User = { ...target, role: input.role ?? target.role, status: input.status ?? target.status };
      const details: Record<string, string> = {};
      if (updated.role !== target.role) Object.assign(details, { role_from: target.role, role_to: updated.role });
      if (updated.status !== target.status) Object.assign(details, { status_from: target.status, status_to: updated.status });
      if (Object.keys(details).length === 0) return target;
      await this.users.update(updated);
      if (updated.status === 'disabled') await this.sessions.endAllForUser(target.merchantId, target.id, this.clock.now());
      await this.audit.record({ merchantId: actor.merchantId, userId: actor.id, action: 'users.write', objectType: 'dashboard_user', objectId: target.id, details: { change: 'updated', ...details } });
      return updated;
    });
  }
}

/**
 * Clears a member's second factor: codes of the old secret stop at once, and the member's
 * sessions end, since a reset usually means a lost or exposed device. The member claims a new
 * secret with email and password. Not one's own (the no-self-edit rule), and an owner's only by
 * an owner. A notice goes to the member and to the account's email, committed with the reset.
 */
export class ResetTeamUserMfa {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    private readonly sessions: DashboardSessionRepository,
    private readonly merchants: MerchantRepository,
    private readonly notices: NoticeOutbox,
    private readonly audit: AuditRecorder,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  execute(actor: User, id: string): Promise<User> {
    return this.uow.run(async () => {
      const target = await teamMember(this.users, actor, id);
      assertMayChange(actor, target);
      const { mfaSecret: _secret, mfaLastStep: _step, ...rest } = target;
      void _secret;
      void _step;
      const reset: User = rest;
      await this.users.update(reset);
      const now = this.clock.now();
      await this.sessions.endAllForUser(target.merchantId, target.id, now);
      const accountEmail = (await this.merchants.findById(actor.merchantId))?.email;
      for (const recipient of new Set([target.email, ...(accountEmail === undefined ? [] : [accountEmail])])) {
        await this.notices.append({
          id: newId(this.random, 'notice'),
          merchantId: actor.merchantId,
          kind: 'user.mfa_reset',
          recipient,
          details: { user: target.id, user_email: target.email, reset_by: actor.email },
          created: now,
        });
      }
      await this.audit.record({ merchantId: actor.merchantId, userId: actor.id, action: 'users.reset_mfa', objectType: 'dashboard_user', objectId: target.id, details: { change: 'mfa_reset' } });
      return reset;
    });
  }
}
