// Accounts: Better Auth on our own tables. Everything about sessions, passwords, verification
// and two-factor lives here; the rest of the server only asks "who is this?".
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, twoFactor } from "better-auth/plugins";
import { defaultAc, userAc } from "better-auth/plugins/admin/access";
import type { Db } from "../../../db/client.ts";
import * as schema from "../../../db/schema/index.ts";
import { safeNextPath, VERIFY_NEXT_HEADER, verifyCallback } from "../../../shared/next-path.ts";
import type { MailSender } from "../mail/mail.service.ts";
import { createProfileForUser } from "../profile/profile.service.ts";
import { clearSignInFailures, mayMail, noticeExistingAccountSignUp } from "./account-abuse.service.ts";
import { type CurrentUser, currentUserReader } from "./current-user.ts";
import { touchLastActive } from "./last-active.queries.ts";
import type { SignedInCache } from "./signed-in-cache.ts";

/** The header our own server sets to the socket's address; any value a client sends is replaced. */
export const CLIENT_IP_HEADER = "x-bookplate-client-ip";

export type AuthOptions = {
  db: Db;
  mailer: MailSender;
  appOrigin: string;
  secret: string;
  production: boolean;
  /** Sign-in, sign-up and password attempts allowed per window per address. */
  rateLimit: { window: number; max: number };
  /** Who session cookies sign in, kept between requests (ADR 093); none: every request reads it. */
  signedIn?: SignedInCache<CurrentUser>;
};

/**
 * The verification link's landing page. Sign-up and "resend" name it; the mail Better Auth sends
 * when an unverified account signs in would land on the marketing home ("/"), signed in but
 * looking signed out, with the plan chosen on /pricing lost — so it goes to the app's landing
 * page instead, carrying where the sign-in form was heading.
 */
function landing(url: string, request: Request | undefined): string {
  const link = new URL(url);
  const callback = link.searchParams.get("callbackURL");
  if (callback && callback !== "/") return url;
  const next = safeNextPath(request?.headers.get(VERIFY_NEXT_HEADER)) ?? "/dashboard";
  link.searchParams.set("callbackURL", verifyCallback(next));
  return link.toString();
}

/**
 * What each role may do through Better Auth's admin plugin, should the server ever call it (no
 * HTTP request reaches it: auth.routes.ts). Staff powers are ours — admin.guard.ts and
 * admin.service.ts decide, and the audit log records — so these only ever grant less: an admin
 * gets nothing, a super admin what our rules already let a super admin do (see accounts, change
 * roles, ban, end sessions). Nobody may create, delete, impersonate, set passwords or edit
 * accounts through the plugin (ADR 044).
 */
export const AUTH_ROLES = {
  user: userAc,
  admin: defaultAc.newRole({ user: [], session: [] }),
  super_admin: defaultAc.newRole({ user: ["list", "get", "set-role", "ban"], session: ["list", "revoke"] }),
};

/** A session lasts 30 days, extended (and the account's last activity stamped) at most daily. */
const SESSION_TIMES = { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 };

/**
 * Better Auth, and `currentUser(headers)`: the signed-in user of a request (what its getSession
 * answers, read the short way when it can be: `current-user.ts`, ADR 072).
 */
export function createAuth(opts: AuthOptions) {
  const auth = betterAuth({
    appName: "Bookplate",
    baseURL: opts.appOrigin,
    basePath: "/api/auth",
    secret: opts.secret,
    trustedOrigins: [opts.appOrigin],
    database: drizzleAdapter(opts.db, { provider: "pg", schema, usePlural: false }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        // Better Auth answers the same whether or not this mail goes, so the cap tells nothing.
        if (!(await mayMail(opts.db, "password-reset", user.email))) return;
        await opts.mailer.send({
          to: user.email,
          subject: "Reset your Bookplate password",
          text: `Hello,\n\nSomeone asked to reset the password of your Bookplate account. To choose a new password, open this link (it works for one hour):\n\n${url}\n\nIf it was not you, ignore this mail: your password stays as it is.`,
          automatic: true,
        });
      },
      // A new password is the owner's answer to a guessing attack: sign-in works again at once.
      onPasswordReset: async ({ user }) => {
        await clearSignInFailures(opts.db, user.email);
      },
      // With email verification required, Better Auth answers a sign-up for a taken address
      // with a made-up user instead of an error. These two make that answer identical to a real
      // one (a real user row carries the admin plugin's fields) and tell the owner instead.
      customSyntheticUser: ({ coreFields, id }) => ({
        ...coreFields,
        id,
        role: "user",
        banned: false,
        banReason: null,
        banExpires: null,
        twoFactorEnabled: false,
      }),
      onExistingUserSignUp: async ({ user }) => {
        await noticeExistingAccountSignUp(opts, user);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      // Whoever signs up types the name, and the address may not be theirs: no name in the
      // mails to an address that has not confirmed (ADR 048).
      sendVerificationEmail: async ({ user, url }, request) => {
        await opts.mailer.send({
          to: user.email,
          subject: "Confirm your email for Bookplate",
          text: `Hello,\n\nWelcome to Bookplate. Please confirm your email address by opening this link:\n\n${landing(url, request)}\n\nThe link works for 24 hours.`,
          automatic: true,
        });
      },
    },
    session: SESSION_TIMES,
    user: {
      deleteUser: { enabled: false },
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await createProfileForUser(opts.db, { id: user.id, name: user.name, email: user.email });
          },
        },
      },
      session: {
        create: { after: (session) => touchLastActive(opts.db, session.userId) },
        update: {
          after: async (session) => {
            if (session.userId) await touchLastActive(opts.db, session.userId);
          },
        },
      },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      modelName: "rateLimit",
      window: 60,
      max: 300,
      customRules: {
        "/sign-in/email": opts.rateLimit,
        "/sign-up/email": opts.rateLimit,
        "/two-factor/verify-totp": opts.rateLimit,
        "/two-factor/verify-backup-code": opts.rateLimit,
        "/request-password-reset": opts.rateLimit,
        "/reset-password": opts.rateLimit,
        "/change-password": opts.rateLimit,
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: opts.production,
      defaultCookieAttributes: { sameSite: "lax", httpOnly: true },
      database: { generateId: () => crypto.randomUUID() },
    },
    plugins: [
      twoFactor({ issuer: "Bookplate" }),
      admin({
        roles: AUTH_ROLES,
        adminRoles: ["admin", "super_admin"],
        defaultRole: "user",
      }),
    ],
  });
  return Object.assign(auth, { currentUser: currentUserReader(auth, opts.db, SESSION_TIMES, opts.signedIn) });
}

export type Auth = ReturnType<typeof createAuth>;
