CREATE SEQUENCE "public"."chat_list_version" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "chat_list_versions" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
-- Each member in ids gets a new version of their chat list; in ascending order, so that concurrent stamps take
-- their row locks in one order.
CREATE FUNCTION chat_list_touch(ids integer[]) RETURNS void LANGUAGE sql AS $$
	INSERT INTO chat_list_versions (user_id, version)
	SELECT id, nextval('chat_list_version') FROM (SELECT DISTINCT unnest(ids) AS id) m WHERE id IS NOT NULL ORDER BY id
	ON CONFLICT (user_id) DO UPDATE SET version = excluded.version
$$;--> statement-breakpoint
-- The members who chat with this one: their lists show this member's profile.
CREATE FUNCTION chat_list_touch_partners(member integer) RETURNS void LANGUAGE sql AS $$
	SELECT chat_list_touch(ARRAY(SELECT o.user_id FROM conversation_members m
		JOIN conversation_members o ON o.conversation_id = m.conversation_id AND o.user_id <> m.user_id
		WHERE m.user_id = member))
$$;--> statement-breakpoint
-- A member's own row: a chat added or gone, its unread count, hidden or shown again.
CREATE FUNCTION chat_list_member_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN PERFORM chat_list_touch(ARRAY[OLD.user_id]); ELSE PERFORM chat_list_touch(ARRAY[NEW.user_id]); END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER chat_list_member AFTER INSERT OR DELETE ON conversation_members FOR EACH ROW EXECUTE FUNCTION chat_list_member_changed();--> statement-breakpoint
CREATE TRIGGER chat_list_member_update AFTER UPDATE ON conversation_members FOR EACH ROW
	WHEN (OLD.unread_count IS DISTINCT FROM NEW.unread_count OR OLD.hidden IS DISTINCT FROM NEW.hidden)
	EXECUTE FUNCTION chat_list_member_changed();--> statement-breakpoint
-- Every message sent moves its conversation's last_message_at (chat.service.ts sendStatement): both lists.
CREATE FUNCTION chat_list_conversation_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM chat_list_touch(ARRAY[NEW.user_low, NEW.user_high]);
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER chat_list_conversation AFTER INSERT OR UPDATE ON conversations FOR EACH ROW EXECUTE FUNCTION chat_list_conversation_changed();--> statement-breakpoint
-- Messages are only added by the service; one changed or removed otherwise (moderation, a photo gone) may have
-- been a conversation's last message.
CREATE FUNCTION chat_list_messages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM chat_list_touch(ARRAY(SELECT unnest(ARRAY[c.user_low, c.user_high]) FROM conversations c
		WHERE c.id IN (SELECT DISTINCT conversation_id FROM changed)));
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER chat_list_messages_update AFTER UPDATE ON messages REFERENCING NEW TABLE AS changed
	FOR EACH STATEMENT EXECUTE FUNCTION chat_list_messages_changed();--> statement-breakpoint
CREATE TRIGGER chat_list_messages_delete AFTER DELETE ON messages REFERENCING OLD TABLE AS changed
	FOR EACH STATEMENT EXECUTE FUNCTION chat_list_messages_changed();--> statement-breakpoint
-- A block hides the conversation from both lists; lifting it shows it again.
CREATE FUNCTION chat_list_block_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN PERFORM chat_list_touch(ARRAY[OLD.blocker_id, OLD.blocked_id]);
	ELSE PERFORM chat_list_touch(ARRAY[NEW.blocker_id, NEW.blocked_id]); END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER chat_list_block AFTER INSERT OR DELETE ON blocks FOR EACH ROW EXECUTE FUNCTION chat_list_block_changed();--> statement-breakpoint
-- What the lists show of a member: the profile's summary fields, the main photo, the account's status and
-- invisibility (the online dot's age is applied when a list is served).
CREATE FUNCTION chat_list_profile_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' THEN PERFORM chat_list_touch_partners(OLD.user_id); ELSE PERFORM chat_list_touch_partners(NEW.user_id); END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER chat_list_profile AFTER INSERT OR DELETE ON profiles FOR EACH ROW EXECUTE FUNCTION chat_list_profile_changed();--> statement-breakpoint
CREATE TRIGGER chat_list_profile_update AFTER UPDATE ON profiles FOR EACH ROW
	WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.birth_date IS DISTINCT FROM NEW.birth_date OR OLD.gender IS DISTINCT FROM NEW.gender
		OR OLD.country IS DISTINCT FROM NEW.country OR OLD.region IS DISTINCT FROM NEW.region OR OLD.status IS DISTINCT FROM NEW.status
		OR OLD.fictional IS DISTINCT FROM NEW.fictional OR OLD.main_photo_id IS DISTINCT FROM NEW.main_photo_id)
	EXECUTE FUNCTION chat_list_profile_changed();--> statement-breakpoint
CREATE FUNCTION chat_list_photo_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF EXISTS (SELECT 1 FROM profiles WHERE user_id = OLD.user_id AND main_photo_id = OLD.id) THEN
		PERFORM chat_list_touch_partners(OLD.user_id);
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER chat_list_photo_update AFTER UPDATE ON photos FOR EACH ROW
	WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.filename IS DISTINCT FROM NEW.filename OR OLD.thumb_filename IS DISTINCT FROM NEW.thumb_filename)
	EXECUTE FUNCTION chat_list_photo_changed();--> statement-breakpoint
CREATE TRIGGER chat_list_photo_delete AFTER DELETE ON photos FOR EACH ROW EXECUTE FUNCTION chat_list_photo_changed();--> statement-breakpoint
CREATE FUNCTION chat_list_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM chat_list_touch_partners(NEW.id);
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER chat_list_account AFTER UPDATE ON users FOR EACH ROW
	WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.invisible IS DISTINCT FROM NEW.invisible)
	EXECUTE FUNCTION chat_list_account_changed();
