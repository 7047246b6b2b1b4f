import type { MerchantRepository } from '../../merchants';
import type { Clock, RandomSource, UnitOfWork } from '../../common';
import { CoreError, invalidParameter, newId, notFound } from '../../common';
import { PASSWORD_LENGTH, USER_ROLES, USER_STATUSES, type User, type UserRole, type UserStatus } from '../domain/user.entity';
import type { DashboardSessionRepository } from '../ports/dashboard-session.repository.port';
import type { NoticeOutbox } from '../ports/notice-outbox.port';
import type { PasswordHasher } from '../ports/password-hasher.port';
import type { UserRepository } from '../ports/user.repository.port';
import type { AuditFact, AuditRecorder } from './audit';
import { normalizeEmail } from './sign-in-throttle';
import type { StepUp } from './step-up';

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

/**
 * The member to change, its row locked until the unit of work ends: concurrent edits of one member
 * (a role change, a disable, an MFA reset) run one after the other, each on the row the previous
 * one left, so none writes back a field another just changed.
 */
async function lockedTeamMember(users: UserRepository, actor: User, id: string): Promise<User> {
  const user = await users.findByIdForUpdate(actor.merchantId, id);
  if (!user) throw notFound('user', id);
  return user;
}

/** Roles whose grant is a step-up action: they can change the team and the payout destinations. */
const STEP_UP_ROLES: readonly UserRole[] = ['admin', 'owner'];

/** Whether moving a member from `from` to `to` grants admin or owner (USER_ROLES runs from most to least powerful). */
function grantsStepUpRole(from: UserRole, to: UserRole): boolean {
  return STEP_UP_ROLES.includes(to) && USER_ROLES.indexOf(to) < USER_ROLES.indexOf(from);
}

/** What every change to the team writes through: the member's row, the notices, the step-up check and the audit trail. */
export interface TeamChangeDeps {
  readonly uow: UnitOfWork;
  readonly users: UserRepository;
  readonly merchants: MerchantRepository;
  readonly notices: NoticeOutbox;
  readonly stepUp: StepUp;
  readonly audit: AuditRecorder;
  readonly clock: Clock;
  readonly random: RandomSource;
}

interface TeamNotice {
  readonly actor: User;
  readonly kind: 'user.added' | 'user.role_granted' | 'user.mfa_reset';
  readonly details: Readonly<Record<string, string>>;
  readonly now: Date;
  /** Recipients besides the account's email. */
  readonly alsoTo?: readonly string[];
}

/** A team notice for the account's email (and `alsoTo`), appended in the unit of work of the change. */
async function appendTeamNotice(deps: TeamChangeDeps, notice: TeamNotice): Promise<void> {
  const accountEmail = (await deps.merchants.findById(notice.actor.merchantId))?.email;
  for (const recipient of new Set([...(notice.alsoTo ?? []), ...(accountEmail === undefined ? [] : [accountEmail])])) {
    await deps.notices.append({
      id: newId(deps.random, 'notice'),
      merchantId: notice.actor.merchantId,
      kind: notice.kind,
      recipient,
      details: notice.details,
      created: notice.now,
    });
  }
}

/** The audit entry of a change to the member `userId`, recorded in the unit of work of the change. */
function auditTeamChange(audit: AuditRecorder, actor: User, userId: string, details: AuditFact['details'], action = 'users.write'): Promise<void> {
  return audit.recordAction(actor, action, { type: 'dashboard_user', id: userId }, details);
}
export interface ListTeamUsersDeps {
  readonly users: UserRepository;
}

/** GET users: every member of the actor's merchant, oldest first. */
export class ListTeamUsers {
  constructor(private readonly deps: ListTeamUsersDeps) {}

  execute(actor: User): Promise<User[]> {
    return this.deps.users.listByMerchant(actor.merchantId);
  }
}

export interface AddTeamUserInput {
  readonly email: string;
  readonly password: string;
  readonly role: UserRole;
  readonly name?: string;
  /** The one-time code of the person adding the member (a step-up action). */
  readonly code?: string | undefined;
}
export interface AddTeamUserDeps extends TeamChangeDeps {
  readonly passwords: PasswordHasher;
}

/**
 * Adds a member without a second factor; their first call is the MFA claim. A step-up action: it
 * takes the actor's one-time code, and a notice goes to the account's email, so a stolen admin
 * session cannot quietly make a second account with a second factor of its own.
 */
export class AddTeamUser {
  constructor(private readonly deps: AddTeamUserDeps) {}

  /**
   * Throws 400 for a bad field, 403 `forbidden` for an owner grant by a non-owner, 403
   * `mfa_code_invalid` (or 429 `rate_limited`) for the code, 409 `email_taken`.
   */
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

    // Hashed before the transaction opens: it is slow, and no row should wait for it.
    const passwordHash = await this.deps.passwords.hash(input.password);
    return this.deps.stepUp.guard(actor, () =>
      this.deps.uow.run(async (transaction) => {
        const self = transaction.bind(this);
        await self.deps.stepUp.verify(actor, input.code);
        const now = self.deps.clock.now();
        const user: User = {
          id: newId(self.deps.random, 'user'),
          merchantId: actor.merchantId,
          email,
          ...(name === undefined ? {} : { name }),
          role: input.role,
          status: 'active',
          passwordHash,
          created: now,
        };
        await self.deps.users.insert(user);
        await appendTeamNotice(self.deps, {
          actor,
          kind: 'user.added',
          details: { user: user.id, user_email: user.email, role: user.role, added_by: actor.email },
          now,
        });
        await auditTeamChange(self.deps.audit, actor, user.id, { change: 'created', role: user.role });
        return user;
      }),
    );
  }
}

export interface UpdateTeamUserInput {
  readonly role?: UserRole;
  readonly status?: UserStatus;
  /** The one-time code of the person acting; needed when the change grants admin or owner. */
  readonly code?: string | undefined;
}
export interface UpdateTeamUserDeps extends TeamChangeDeps {
  readonly sessions: DashboardSessionRepository;
}

/**
 * Changes a member's role or status; disabling ends their sessions in the same transaction.
 * Granting admin or owner (to a member who had a lesser role) is a step-up action: it takes the
 * actor's one-time code and writes a notice for the account's email.
 */
export class UpdateTeamUser {
  constructor(private readonly deps: UpdateTeamUserDeps) {}

  /**
   * Throws 404 for a user of another merchant, 403 `forbidden` for the team rules, then (for a
   * grant of admin or owner) 403 `mfa_code_invalid` or 429 `rate_limited` for the code.
   */
  execute(actor: User, id: string, input: UpdateTeamUserInput): Promise<User> {
    if (input.role !== undefined && !USER_ROLES.includes(input.role)) throw invalidParameter('role', `role must be one of ${USER_ROLES.join(', ')}.`);
    if (input.status !== undefined && !USER_STATUSES.includes(input.status)) {
      throw invalidParameter('status', `status must be one of ${USER_STATUSES.join(', ')}.`);
    }
    const update = () =>
      this.deps.uow.run(async (transaction) => {
        const self = transaction.bind(this);
        const target = await lockedTeamMember(self.deps.users, actor, id);
        assertMayChange(actor, target, input.role);
        const grants = input.role !== undefined && grantsStepUpRole(target.role, input.role);
        if (grants) await self.deps.stepUp.verify(actor, input.code);
        const updated: User = { ...target, role: input.role ?? target.role, status: input.status ?? target.status };
        const details: Record<string, string> = {};
        if (updated.role !== target.role) Object.assign(details, { role_from: target.role, role_to: updated.role });
        if (updated.status !== target.status) Object.assign(details, { status_from: target.status, status_to: updated.status });
        if (Object.keys(details).length === 0) return target;
        await self.deps.users.update(updated);
        const now = self.deps.clock.now();
        if (updated.status === 'disabled') await self.deps.sessions.endAllForUser(target.merchantId, target.id, now);
        if (grants) {
          const granted = { user: target.id, user_email: target.email, role_from: target.role, role_to: updated.role, granted_by: actor.email };
          await appendTeamNotice(self.deps, { actor, kind: 'user.role_granted', details: granted, now });
        }
        await auditTeamChange(self.deps.audit, actor, target.id, { change: 'updated', ...details });
        return updated;
      });
    // Whether it grants is known once the row is read; only a change that may grant takes the
    // throttle's slot, so an actor throttled for wrong codes can still disable a member.
    const mayGrant = input.role !== undefined && STEP_UP_ROLES.includes(input.role);
    return mayGrant ? this.deps.stepUp.guard(actor, update) : update();
  }
}
/** A reset needs what a role or status change needs: it ends the member's sessions and notifies. */
export type ResetTeamUserMfaDeps = UpdateTeamUserDeps;

/**
 * Clears a member's second factor: codes of the old secret stop at once, and the member's
 * sessions end, since a reset usually means a lost or exposed device. The member claims a new
 * secret with email and password. Not one's own (the no-self-edit rule), and an owner's only by
 * an owner. A step-up action: it takes the actor's one-time code. A notice goes to the member and
 * to the account's email, committed with the reset.
 */
export class ResetTeamUserMfa {
  constructor(private readonly deps: ResetTeamUserMfaDeps) {}

  /** Throws 404, 403 `forbidden` for the team rules, then 403 `mfa_code_invalid` or 429 `rate_limited` for the code. */
  execute(actor: User, id: string, code: string | undefined): Promise<User> {
    return this.deps.stepUp.guard(actor, () =>
      this.deps.uow.run(async (transaction) => {
        const self = transaction.bind(this);
        const target = await lockedTeamMember(self.deps.users, actor, id);
        assertMayChange(actor, target);
        await self.deps.stepUp.verify(actor, code);
        const { mfaSecret: _secret, mfaLastStep: _step, ...rest } = target;
        void _secret;
        void _step;
        const reset: User = rest;
        await self.deps.users.update(reset);
        const now = self.deps.clock.now();
        await self.deps.sessions.endAllForUser(target.merchantId, target.id, now);
        await appendTeamNotice(self.deps, {
          actor,
          kind: 'user.mfa_reset',
          details: { user: target.id, user_email: target.email, reset_by: actor.email },
          now,
          alsoTo: [target.email],
        });
        await auditTeamChange(self.deps.audit, actor, target.id, { change: 'mfa_reset' }, 'users.reset_mfa');
        return reset;
      }),
    );
  }
}
