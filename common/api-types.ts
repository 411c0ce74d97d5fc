/** Shapes the JSON API returns (spec sections 3 and 7). */
export interface MainImage {
  filename: string;
  thumb_filename: string;
  status: 'active' | 'pending' | 'rejected';
}

export interface ProfileSummary {
  id: number;
  name: string;
  age: number;
  gender: 'male' | 'female';
  country: string;
  region: string | null;
  status: 'active' | 'disabled';
  main_image: MainImage | null;
  fictional: boolean;
}

export interface ProfileDetail extends ProfileSummary {
  about: string;
  liked: boolean;
  liked_me: boolean;
  conversation_id: number | null;
  /** The attributes the site shows (setting visible_profile_fields) and the member filled in. */
  attributes: Record<string, string>;
  interests: string[];
  /** Photos as this viewer may see them; `locked` entries carry no file names. */
  photos: GalleryPhoto[];
  /** The viewer blocked this member (only the blocker ever sees a blocked profile). */
  blocked: boolean;
}

/** A photo in a profile's gallery. `locked`: 'login' for visitors, 'premium' for free members. */
export interface GalleryPhoto {
  id: number;
  filename: string | null;
  thumb_filename: string | null;
  status: 'active' | 'pending' | 'rejected';
  is_private: boolean;
  is_main: boolean;
  locked: null | 'login' | 'premium';
}

/** POST /api/photos.php and GET /api/photos.php: the member's own photos. */
export interface OwnPhoto {
  id: number;
  filename: string;
  thumb_filename: string;
  status: 'active' | 'pending' | 'rejected';
  is_private: boolean;
  is_main: boolean;
}

/** GET /api/profile.php (no id): the signed-in member's editable profile. */
export interface OwnProfile {
  id: number;
  email: string;
  name: string;
  gender: 'male' | 'female';
  sexuality: string | null;
  hair_color: string | null;
  eye_color: string | null;
  body_type: string | null;
  relationship_status: string | null;
  tattoos: string | null;
  signup_reason: string | null;
  interests: string[];
  about: string;
  country: string;
  region: string | null;
}

export interface ApiUser {
  id: number;
  email: string;
  status: 'not_confirmed' | 'active';
  paid_user: boolean;
  credits: number;
  notifications_disabled: string[];
  language: string;
  signup_date: string;
  num_unread_messages: number;
  num_new_likes: number;
  profile: ProfileSummary;
}

export type ChatMessageKind = 'text' | 'gift' | 'photo';

export interface ChatSummary {
  conversation: { id: number; last_message_at: string | null };
  profile: ProfileSummary;
  num_unread_messages: number;
  last_message: { kind: ChatMessageKind; text: string; from_me: boolean; created_at: string } | null;
}

export interface Gift {
  id: number;
  slug: string;
  /** The image's path on the site (public/gifts/<slug>.svg). */
  image: string;
}

export interface ChatMessage {
  id: number;
  conversation_id: number;
  from_me: boolean;
  kind: ChatMessageKind;
  /** Empty for gifts and photos. */
  text: string;
  created_at: string;
  gift?: Gift;
  /** A photo in the chat; null once moderation removed it. */
  photo?: { filename: string; thumb_filename: string; width: number; height: number } | null;
  /** My messages only: the recipient's word filter hid it, and it cost nothing. */
  filtered?: boolean;
  /** My messages only, when both members show read receipts: whether the other member has seen it. */
  read?: boolean;
}

/** What the chat's paid actions cost this member, in credits and (at their top-up bundle's rate) in money. */
export interface ChatPrices {
  message: number;
  gift: number;
  photo: number;
  /** The bundle a member short of credits would buy, for the money shown on paid buttons; null when none is sold in their currency. */
  credit_price: { amount: number; credits: number; currency: string } | null;
}

export interface CreditPackage {
  id: number;
  credits: number;
  amount: number;
  currency: string;
  popular: boolean;
}

export interface Order {
  id: string;
  credits: number;
  amount: number;
  currency: string;
  paymentmethod: string;
  status: 'open' | 'pending' | 'completed' | 'failed' | 'cancelled';
  payment_id: string | null;
}

export interface ApiErrorBody {
  error: { code: string; message: string; details?: Record<string, string> };
}
