import {
  AddTeamUser,
  ApiKeyRepository,
  AuditLog,
  AuditRecorder,
  AuthenticateDashboardSession,
  ClaimMfa,
  Clock,
  CreateApiKey,
  CreateMerchant,
  DashboardCredentials,
  DashboardSessionRepository,
  DeliverNotices,
  Digest,
  Ed25519KeyCheck,
  EmailSender,
  FailureCounter,
  GetMerchantSettings,
  IssueApiKey,
  ListApiKeys,
  ListSigningKeys,
  ListTeamUsers,
  MerchantRepository,
  NoticeOutbox,
  OneTimeCodes,
  PasswordHasher,
  RandomSource,
  RegisterSigningKey,
  ResetTeamUserMfa,
  RevokeApiKey,
  SecretBox,
  SignIn,
  SignInThrottle,
  SignOut,
  SigningKeyRepository,
  StepUp,
  UnitOfWork,
  UpdateMerchantSettings,
  UpdateTeamUser,
  UserRepository,
  VerifyOneTimeCode,
} from '@payments/core';
import { ContainerModule } from 'inversify';
import { bindClass } from './wiring';
import type { Capability } from './capability';
import signIn from '../routes/dashboard/sign-in.route';
import getSession from '../routes/dashboard/get-session.route';
import signOut from '../routes/dashboard/sign-out.route';
import claimMfa from '../routes/dashboard/claim-mfa.route';
import listUsers from '../routes/dashboard/list-users.route';
import addUser from '../routes/dashboard/add-user.route';
import updateUser from '../routes/dashboard/update-user.route';
import resetUserMfa from '../routes/dashboard/reset-user-mfa.route';
import getSettings from '../routes/dashboard/get-settings.route';
import updateSettings from '../routes/dashboard/update-settings.route';
import listApiKeys from '../routes/dashboard/list-api-keys.route';
import createApiKey from '../routes/dashboard/create-api-key.route';
import revokeApiKey from '../routes/dashboard/revoke-api-key.route';
import listSigningKeys from '../routes/dashboard/list-signing-keys.route';
import registerSigningKey from '../routes/dashboard/register-signing-key.route';

/** The dashboard: onboarding a merchant with its owner, sign-in with a second factor, sessions, step-up, the team, keys, settings, audit and notices. */
export const dashboardModule: Capability = {
  bindings: () =>
    new ContainerModule((options) => {
      bindClass(options, AuditRecorder, { log: AuditLog, clock: Clock, random: RandomSource });
      bindClass(options, CreateMerchant, {
        uow: UnitOfWork,
        merchants: MerchantRepository,
        users: UserRepository,
        issueApiKey: IssueApiKey,
        passwords: PasswordHasher,
        clock: Clock,
        random: RandomSource,
      });
      bindClass(options, VerifyOneTimeCode, { uow: UnitOfWork, users: UserRepository, codes: OneTimeCodes, secrets: SecretBox, clock: Clock });
      bindClass(options, SignInThrottle, { counter: FailureCounter, clock: Clock, digest: Digest });
      bindClass(options, StepUp, { verifyCode: VerifyOneTimeCode, failures: FailureCounter, clock: Clock });
      bindClass(options, DashboardCredentials, { users: UserRepository, passwords: PasswordHasher, random: RandomSource, throttle: SignInThrottle });
      bindClass(options, SignIn, {
        uow: UnitOfWork,
        credentials: DashboardCredentials,
        verifyCode: VerifyOneTimeCode,
        sessions: DashboardSessionRepository,
        audit: AuditRecorder,
        clock: Clock,
        random: RandomSource,
        digest: Digest,
      });
      bindClass(options, ClaimMfa, {
        uow: UnitOfWork,
        credentials: DashboardCredentials,
        users: UserRepository,
        codes: OneTimeCodes,
        secrets: SecretBox,
        audit: AuditRecorder,
      });
      bindClass(options, AuthenticateDashboardSession, {
        sessions: DashboardSessionRepository,
        users: UserRepository,
        merchants: MerchantRepository,
        digest: Digest,
        clock: Clock,
      });
      bindClass(options, SignOut, { uow: UnitOfWork, sessions: DashboardSessionRepository, audit: AuditRecorder, clock: Clock });

      bindClass(options, ListTeamUsers, { users: UserRepository });
      const teamChange = {
        uow: UnitOfWork,
        users: UserRepository,
        merchants: MerchantRepository,
        notices: NoticeOutbox,
        stepUp: StepUp,
        audit: AuditRecorder,
        clock: Clock,
        random: RandomSource,
      };
      bindClass(options, AddTeamUser, { ...teamChange, passwords: PasswordHasher });
      bindClass(options, UpdateTeamUser, { ...teamChange, sessions: DashboardSessionRepository });
      bindClass(options, ResetTeamUserMfa, { ...teamChange, sessions: DashboardSessionRepository });

      bindClass(options, GetMerchantSettings, { merchants: MerchantRepository });
      bindClass(options, UpdateMerchantSettings, { uow: UnitOfWork, merchants: MerchantRepository, audit: AuditRecorder });
      bindClass(options, ListApiKeys, { keys: ApiKeyRepository });
      bindClass(options, CreateApiKey, { uow: UnitOfWork, issueApiKey: IssueApiKey, audit: AuditRecorder });
      bindClass(options, RevokeApiKey, { uow: UnitOfWork, keys: ApiKeyRepository, audit: AuditRecorder, clock: Clock });
      bindClass(options, ListSigningKeys, { keys: SigningKeyRepository });
      bindClass(options, RegisterSigningKey, {
        uow: UnitOfWork,
        keys: SigningKeyRepository,
        check: Ed25519KeyCheck,
        audit: AuditRecorder,
        clock: Clock,
        random: RandomSource,
      });
      bindClass(options, DeliverNotices, { notices: NoticeOutbox, email: EmailSender, clock: Clock });
    }),
  routes: [
    signIn,
    getSession,
    signOut,
    claimMfa,
    listUsers,
    addUser,
    updateUser,
    resetUserMfa,
    getSettings,
    updateSettings,
    listApiKeys,
    createApiKey,
    revokeApiKey,
    listSigningKeys,
    registerSigningKey,
  ],
};
