import type { AuditRecorder } from './audit';
import type { Merchant } from '../../merchants';
import { validateMerchantSettings, type MerchantSettingsInput } from '../../merchants';
import type { User } from '../domain/user.entity';
import { notFound } from '../../shared';
import type { MerchantRepository } from '../../merchants';
import type { UnitOfWork } from '../../shared';

const FIELD_NAMES = { name: 'business_name', supportEmail: 'support_email', statementDescriptor: 'statement_descriptor', settlementSchedule: 'settlement_schedule' } as const;

/**
 * Changes the four merchant-editable settings. Only the fields sent are written, so two people
 * changing different fields at once do not undo each other. Audited with the names of the fields
 * changed (and the new schedule), never their other values; an empty change writes nothing.
 */
export class UpdateMerchantSettings {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly merchants: MerchantRepository,
    private readonly audit: AuditRecorder,
  ) {}

  async execute(actor: User, input: MerchantSettingsInput): Promise<Merchant> {
    const change = validateMerchantSettings(input);
    if (Object.keys(change).length === 0) {
      const merchant = await this.merchants.findById(actor.merchantId);
      if (!merchant) throw notFound('merchant', actor.merchantId);
      return merchant;
    }
    return this.uow.run(async () => {
      const merchant = await this.merchants.updateSettings(actor.merchantId, change);
      if (!merchant) throw notFound('merchant', actor.merchantId);
      const fields = (Object.keys(change) as (keyof typeof FIELD_NAMES)[]).map((key) => FIELD_NAMES[key]);
      await this.audit.record({
        merchantId: actor.merchantId,
        userId: actor.id,
        action: 'settings.write',
        objectType: 'merchant_settings',
        objectId: actor.merchantId,
        details: { change: 'updated', fields: fields.join(','), ...(change.settlementSchedule ? { settlement_schedule: change.settlementSchedule } : {}) },
      });
      return merchant;
    });
  }
}
