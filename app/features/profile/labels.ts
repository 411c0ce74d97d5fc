import type { TFunction } from '../../lib/i18n.ts';
import type { AttributeKey } from '#common/profile.ts';

/** The i18n key of each attribute value, spelled out per attribute so the locale check sees every group. */
const VALUE_KEY: Record<AttributeKey, (value: string) => string> = {
  gender: (v) => `profile_values.gender.${v}`,
  sexuality: (v) => `profile_values.sexuality.${v}`,
  hair_color: (v) => `profile_values.hair_color.${v}`,
  eye_color: (v) => `profile_values.eye_color.${v}`,
  body_type: (v) => `profile_values.body_type.${v}`,
  relationship_status: (v) => `profile_values.relationship_status.${v}`,
  tattoos: (v) => `profile_values.tattoos.${v}`,
  signup_reason: (v) => `profile_values.signup_reason.${v}`,
};

export function attributeValueLabel(t: TFunction, key: string, value: string): string {
  const toKey = VALUE_KEY[key as AttributeKey];
  return toKey ? t(toKey(value)) : value;
}
