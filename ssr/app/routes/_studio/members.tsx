// /staff/members: an admin's page of the staff. Every member with their
// role, who granted it, when and why, their passkeys and whether codes from
// an authenticator app are allowed; a role granted to an account by its
// e-mail address; for each member a role changed or revoked, their studio
// sessions ended, their passkeys removed, codes allowed or stopped. Each
// change needs a reason (kept in the audit log) and a studio session
// confirmed with the passkey within the last minutes: a stale one is refused
// and the page links to the re-check. Without JavaScript every form posts to
// this page (the edge's forms, edge/internal/studiopages MembersForm); with
// it, to the staff API. Admins only: anyone else gets the site's 404 page.
import { useState, type FormEvent } from "react";
import { data, useLoaderData, useLocation, useRevalidator } from "react-router";
import { Notice, StudioHeader } from "~/components/studio/studio-header";
import { useRefusedForm } from "~/lib/form-state";
import { routeMeta } from "~/lib/meta";
import { api, when, type StaffMember, type StaffRole } from "~/lib/studio";
import { studioData, studioHeaders } from "~/lib/studio.server";
import type { Route } from "./+types/members";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;
export const headers = () => studioHeaders;

export function loader({ request }: Route.LoaderArgs) {
  const d = studioData(request);
  // The edge sends the members to an admin only.
  if (!d.members && !d.error) throw data(null, { status: 404 });
  return d;
}

const RECHECK = "reauthenticate: ";
const RECHECK_HREF = `/staff/sign-in?next=${encodeURIComponent("/staff/members")}`;

/** What a done change says (?done= after a post without JavaScript, or the API's answer). */
function doneText(done: string, who: string): string | null {
  const texts: Record<string, string> = {
    grant: `${who} now has the role you chose. It is in the audit log with your reason.`,
    revoke: `${who} is no longer on the staff; their studio sessions ended.`,
    "sessions/revoke": `Every studio session of ${who} ended.`,
    "passkeys/revoke": `The passkeys of ${who} are removed and their studio sessions ended.`,
    "totp-on": `${who} may now confirm with codes from an authenticator app.`,
    "totp-off": `Codes from an authenticator app are off for ${who}.`,
  };
  return Object.hasOwn(texts, done) ? texts[done] : null;
}

type Message = { tone: "ok" | "error"; text: string; recheck?: boolean };

export default function StudioMembers() {
  const d = useLoaderData<typeof loader>();
  const refused = useRefusedForm("studio-members");
  const { search } = useLocation();
  const q = new URLSearchParams(search);
  const revalidator = useRevalidator();
  const [message, setMessage] = useState<Message | null>(() => {
    if (refused?.error) {
      const recheck = refused.error.startsWith(RECHECK);
      return { tone: "error", text: refused.error.replace(RECHECK, ""), recheck };
    }
    const text = !refused && doneText(q.get("done") ?? "", q.get("who") ?? "");
    return text ? { tone: "ok", text } : null;
  });
  const [errors, setErrors] = useState<{ email: string; fields: Record<string, string> } | null>(refused ? { email: refused.values.email ?? "", fields: refused.errors } : null);
  const [busy, setBusy] = useState(false);
  const typed = refused?.values ?? {};
  const members = d.members?.members ?? [];
  const roles = d.members?.roles ?? [];

  // With JavaScript: the same change through the staff API, the page then read again.
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const action = (event.nativeEvent as SubmitEvent).submitter?.getAttribute("value") ?? (form.elements.namedItem("action") as HTMLInputElement | null)?.value ?? "";
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null)?.value ?? "";
    const email = value("email");
    const body: Record<string, unknown> = { email, reason: value("reason") };
    if (action === "grant") body.role = value("role");
    if (action === "totp") body.allowed = value("allowed") === "true";
    setBusy(true);
    const res = await api<unknown>("POST", `/members/${action}`, body);
    setBusy(false);
    if (!res.ok) {
      setErrors({ email, fields: res.fieldErrors });
      setMessage({ tone: "error", text: res.error, recheck: res.reauthenticate });
      return;
    }
    setErrors(null);
    const done = action === "totp" ? (body.allowed ? "totp-on" : "totp-off") : action;
    setMessage({ tone: "ok", text: doneText(done, email) ?? "Done." });
    form.reset();
    revalidator.revalidate();
  }

  const fieldErrors = (email: string) => (errors && errors.email.toLowerCase() === email.toLowerCase() ? errors.fields : {});
  const input = "mt-1 block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm dark:border-gray-700 dark:bg-gray-900";
  const button = "rounded-md border border-gray-300 px-3 py-1.5 text-sm font-semibold hover:bg-gray-50 disabled:opacity-60 dark:border-gray-700 dark:hover:bg-white/5";
  const grantErrors = members.some((m) => m.email.toLowerCase() === errors?.email.toLowerCase()) ? {} : (errors?.fields ?? {});
  const grantTyped = typed.action === "grant" && !members.some((m) => m.email.toLowerCase() === (typed.email ?? "").toLowerCase()) ? typed : {};

  return (
    <div className="w-full">
      <StudioHeader member={d.member} current="members" admin={d.admin} />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight">Staff</h1>
        <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">
          Roles, from least to most: viewer (reads the insights), editor (writes drafts), publisher (publishes), admin (manages the staff and reads the audit log). Every change
          needs a reason and is kept in the <a href="/staff/audit">audit log</a>.
        </p>
        {d.error && <Notice tone="error">{d.error}</Notice>}
        {message && (
          <Notice tone={message.tone}>
            {message.recheck ? (
              <>
                Nothing was changed: changes to the staff need your passkey confirmed within the last few minutes.{" "}
                <a href={RECHECK_HREF} className="font-semibold underline" data-recheck>
                  Confirm it is you
                </a>
                , then make the change again.
              </>
            ) : (
              message.text
            )}
          </Notice>
        )}

        <section aria-labelledby="grant-title" className="mt-8 max-w-xl">
          <h2 id="grant-title" className="text-lg font-semibold">
            Grant a role
          </h2>
          <p className="text-sm text-gray-600 dark:text-gray-400">The person signs up on the site first; then grant their account a role by its e-mail address.</p>
          <form method="post" action="/staff/members" onSubmit={submit} noValidate aria-label="Grant a role">
            <input type="hidden" name="action" value="grant" />
            <label className="mt-3 block text-sm font-medium">
              E-mail address
              <input name="email" type="email" required defaultValue={grantTyped.email ?? ""} className={input} aria-invalid={!!grantErrors.email || undefined} />
            </label>
            {grantErrors.email && <p className="mt-1 text-sm text-red-700 dark:text-red-300">{grantErrors.email}</p>}
            <RoleSelect roles={roles} value={(grantTyped.role as StaffRole) ?? "viewer"} className={input} />
            <ReasonInput value={grantTyped.reason ?? ""} error={grantErrors.reason} className={input} />
            <button disabled={busy} className="mt-4 rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
              Grant role
            </button>
          </form>
        </section>

        <section aria-labelledby="members-title" className="mt-10">
          <h2 id="members-title" className="text-lg font-semibold">
            Members ({members.length})
          </h2>
          <div className="mt-3 overflow-x-auto">
            <table className="w-full text-left text-sm" data-members>
              <thead className="border-b border-gray-200 text-xs tracking-wide text-gray-600 uppercase dark:border-gray-800 dark:text-gray-400">
                <tr>
                  <th className="py-2 pr-4">E-mail</th>
                  <th className="py-2 pr-4">Role</th>
                  <th className="py-2 pr-4">Granted</th>
                  <th className="py-2 pr-4">Reason</th>
                  <th className="py-2 pr-4">Passkeys</th>
                  <th className="py-2 pr-4">Authenticator codes</th>
                  <th className="py-2">Change</th>
                </tr>
              </thead>
              <tbody>
                {members.map((m) => (
                  <MemberRow
                    key={m.accountId}
                    member={m}
                    roles={roles}
                    me={m.email.toLowerCase() === d.member.toLowerCase()}
                    typed={typed.email?.toLowerCase() === m.email.toLowerCase() ? typed : null}
                    errors={fieldErrors(m.email)}
                    busy={busy}
                    onSubmit={submit}
                    input={input}
                    button={button}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </section>
      </div>
    </div>
  );
}

function RoleSelect({ roles, value, className }: { roles: StaffRole[]; value: StaffRole; className: string }) {
  return (
    <label className="mt-3 block text-sm font-medium">
      Role
      <select name="role" defaultValue={value} className={className}>
        {roles.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
    </label>
  );
}

function ReasonInput({ value, error, className }: { value: string; error?: string; className: string }) {
  return (
    <>
      <label className="mt-3 block text-sm font-medium">
        Reason (kept in the audit log)
        <input name="reason" required maxLength={500} defaultValue={value} className={className} aria-invalid={!!error || undefined} />
      </label>
      {error && <p className="mt-1 text-sm text-red-700 dark:text-red-300">{error}</p>}
    </>
  );
}

interface RowProps {
  member: StaffMember;
  roles: StaffRole[];
  me: boolean;
  typed: Record<string, string> | null;
  errors: Record<string, string>;
  busy: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  input: string;
  button: string;
}

/** One member: what is known, and (folded away, open after a refusal) the changes, each a submit button of one form with the reason. */
function MemberRow({ member: m, roles, me, typed, errors, busy, onSubmit, input, button }: RowProps) {
  return (
    <tr className="border-b border-gray-100 align-top dark:border-gray-900" data-member={m.email}>
      <td className="py-2 pr-4 font-medium break-all">
        {m.email}
        {me && " (you)"}
      </td>
      <td className="py-2 pr-4">{m.role}</td>
      <td className="py-2 pr-4">
        {m.grantedBy}
        <br />
        <span className="text-gray-600 dark:text-gray-400">{when(m.grantedAt)}</span>
      </td>
      <td className="py-2 pr-4">{m.reason}</td>
      <td className="py-2 pr-4">{m.passkeys}</td>
      <td className="py-2 pr-4">{m.totpAllowed ? "Allowed" : "Not allowed"}</td>
      <td className="py-2">
        <details open={!!typed || undefined}>
          <summary className="cursor-pointer text-sm underline">Change</summary>
          <form method="post" action="/staff/members" onSubmit={onSubmit} noValidate className="mt-2 w-72" aria-label={`Change ${m.email}`}>
            <input type="hidden" name="email" value={m.email} />
            <input type="hidden" name="allowed" value={m.totpAllowed ? "false" : "true"} />
            <RoleSelect roles={roles} value={(typed?.role as StaffRole) || m.role} className={input} />
            <ReasonInput value={typed?.reason ?? ""} error={errors.reason} className={input} />
            <div className="mt-3 flex flex-wrap gap-2">
              <button name="action" value="grant" disabled={busy} className={button}>
                Change role
              </button>
              <button name="action" value="revoke" disabled={busy} className={button}>
                Revoke role
              </button>
              <button name="action" value="sessions/revoke" disabled={busy} className={button}>
                End sessions
              </button>
              <button name="action" value="passkeys/revoke" disabled={busy} className={button}>
                Remove passkeys
              </button>
              <button name="action" value="totp" disabled={busy} className={button}>
                {m.totpAllowed ? "Stop authenticator codes" : "Allow authenticator codes"}
              </button>
            </div>
          </form>
        </details>
      </td>
    </tr>
  );
}
