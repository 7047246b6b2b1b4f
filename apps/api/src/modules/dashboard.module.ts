import {
  AddTeamUser,
  ApiKeyRepository,
  AuditLog,
  AuditRecorder,
  AuthenticateDashboardSession,
  ClaimMfa,
  Clock,
  CreateApiKey,
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

/** The dashboard: sign-in with a second factor, sessions, step-up, the team, keys, settings, audit and notices. */
export const dashboardModule = (): ContainerModule =>
  new ContainerModule((options) => {
    bindClass(options, AuditRecorder, { log: AuditLog, clock: Clock, random: RandomSource });
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
    bindClass(options, ClaimMfa, { uow: UnitOfWork, credentials: DashboardCredentials, users: UserRepository, codes: OneTimeCodes, secrets: SecretBox, audit: AuditRecorder });
    bindClass(options, AuthenticateDashboardSession, { sessions: DashboardSessionRepository, users: UserRepository, merchants: MerchantRepository, digest: Digest, clock: Clock });
    bindClass(options, SignOut, { uow: UnitOfWork, sessions: DashboardSessionRepository, audit: AuditRecorder, clock: Clock });

    bindClass(options, ListTeamUsers, { users: UserRepository });
    const teamChange = { uow: UnitOfWork, users: UserRepository, merchants: MerchantRepository, notices: NoticeOutbox, stepUp: StepUp, audit: AuditRecorder, clock: Clock, random: RandomSource };
    bindClass(options, AddTeamUser, { ...teamChange, passwords: PasswordHasher });
    bindClass(options, UpdateTeamUser, { ...teamChange, sessions: DashboardSessionRepository });
    bindClass(options, ResetTeamUserMfa, { ...teamChange, sessions: DashboardSessionRepository });

    bindClass(options, GetMerchantSettings, { merchants: MerchantRepository });
    bindClass(options, UpdateMerchantSettings, { uow: UnitOfWork, merchants: MerchantRepository, audit: AuditRecorder });
    bindClass(options, ListApiKeys, { keys: ApiKeyRepository });
    bindClass(options, CreateApiKey, { uow: UnitOfWork, issueApiKey: IssueApiKey, audit: AuditRecorder });
    bindClass(options, RevokeApiKey, { uow: UnitOfWork, keys: ApiKeyRepository, audit: AuditRecorder, clock: Clock });
    bindClass(options, ListSigningKeys, { keys: SigningKeyRepository });
    bindClass(options, RegisterSigningKey, { uow: UnitOfWork, keys: SigningKeyRepository, check: Ed25519KeyCheck, audit: AuditRecorder, clock: Clock, random: RandomSource });
    bindClass(options, DeliverNotices, { notices: NoticeOutbox, email: EmailSender, clock: Clock });
  });
