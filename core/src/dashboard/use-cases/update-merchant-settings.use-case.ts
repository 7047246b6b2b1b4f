import type { Merchant, MerchantRepository } from '../../merchants';
import { validateMerchantSettings, type MerchantSettingsInput } from '../../merchants';
import type { UnitOfWork } from '../../common';
import { isKeyOf, notFound } from '../../common';
import type { User } from '../domain/user.entity';
import type { AuditRecorder } from './audit';

const FIELD_NAMES = {
  name: 'business_name',
  supportEmail: 'support_email',
  statementDescriptor: 'statement_descriptor',
  settlementSchedule: 'settlement_schedule',
} as const;
export interface UpdateMerchantSettingsDeps {
  readonly uow: UnitOfWork;
  readonly merchants: MerchantRepository;
  readonly audit: AuditRecorder;
}

/**
 * Changes the four merchant-editable settings. Only the fields sent are written, so two people
 * changing different fields at once do not undo each other. Audited with the names of the fields
 * changed (and the new schedule), never their other values; an empty change writes nothing.
 */
export class UpdateMerchantSettings {
  constructor(private readonly deps: UpdateMerchantSettingsDeps) {}

  async execute(actor: User, input: MerchantSettingsInput): Promise<Merchant> {
    const change = validateMerchantSettings(input);
    if (Object.keys(change).length === 0) {
      const merchant = await this.deps.merchants.findById(actor.merchantId);
      if (!merchant) throw notFound('merchant', actor.merchantId);
      return merchant;
    }
    return this.deps.uow.run(async (transaction) => {
      const self = transaction.bind(this);
      const merchant = await self.deps.merchants.updateSettings(actor.merchantId, change);
      if (!merchant) throw notFound('merchant', actor.merchantId);
      const fields = Object.keys(change).flatMap((key) => (isKeyOf(FIELD_NAMES, key) ? [FIELD_NAMES[key]] : []));
      await self.deps.audit.recordAction(
        actor,
        'settings.write',
        { type: 'merchant_settings', id: actor.merchantId },
        { change: 'updated', fields: fields.join(','), ...(change.settlementSchedule ? { settlement_schedule: change.settlementSchedule } : {}) },
      );
      return merchant;
    });
  }
}
