import type { z } from 'zod';
import type {
  apiErrorSchema, apiUserSchema, chatMessageSchema, chatPricesSchema, chatSummarySchema, giftSchema, creditPackageSchema, galleryPhotoSchema,
  discountCodeRecordSchema, orderSchema, ownPhotoSchema, packagePriceSchema, welcomeBonusRecordSchema, ownProfileSchema, profileDetailSchema, profileSummarySchema,
  ledgerEntrySchema, spendCapSchema, transactionOrderDetailSchema, transactionOrderSchema,
} from './contracts/shapes.ts';

/**
 * Shapes the JSON API returns (spec sections 3 and 7). Each is inferred from its schema in
 * common/contracts/shapes.ts, the contract the tests hold every answer to.
 */
export type ProfileSummary = z.infer<typeof profileSummarySchema>;
export type ProfileDetail = z.infer<typeof profileDetailSchema>;
/** A photo in a profile's gallery. `locked`: 'login' for visitors, 'premium' for free members. */
export type GalleryPhoto = z.infer<typeof galleryPhotoSchema>;
/** POST /api/photos.php and GET /api/photos.php: the member's own photos. */
export type OwnPhoto = z.infer<typeof ownPhotoSchema>;
/** GET /api/profile.php (no id): the signed-in member's editable profile. */
export type OwnProfile = z.infer<typeof ownProfileSchema>;
export type ApiUser = z.infer<typeof apiUserSchema>;
export type ChatSummary = z.infer<typeof chatSummarySchema>;
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type Gift = z.infer<typeof giftSchema>;
/** What the chat's paid actions cost this member, in credits and (at their top-up bundle's rate) in money. */
export type ChatPrices = z.infer<typeof chatPricesSchema>;
export type CreditPackage = z.infer<typeof creditPackageSchema>;
export type Order = z.infer<typeof orderSchema>;
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
export type DiscountCodeRecord = z.infer<typeof discountCodeRecordSchema>;
export type WelcomeBonusRecord = z.infer<typeof welcomeBonusRecordSchema>;
/** A bundle's price for one member with the active discount. */
export type PackagePrice = z.infer<typeof packagePriceSchema>;
/** The member's records: orders, their detail, the credit ledger and the spend cap. */
export type TransactionOrder = z.infer<typeof transactionOrderSchema>;
export type TransactionOrderDetail = z.infer<typeof transactionOrderDetailSchema>;
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
export type SpendCap = z.infer<typeof spendCapSchema>;
