// The seven contact-form pages (/contact-us, /general-enquiry, /data-entry,
// /custom-website, /custom-logo, /custom-banners, /career): one module, the
// copy and fields of each from shared/content/contact.json by route id.
import { data, useLoaderData, useRouteLoaderData } from "react-router";
import { ContactForm } from "~/components/contact/contact-form";
import { DataTable } from "~/components/ui/data-table";
import { WelcomeBanner } from "~/components/journey/welcome-banner";
import { Notice } from "~/components/notice/notice";
import { noticeFrom } from "~/lib/notice.server";
import { ONBOARDING_STATUSES } from "~/components/auth/api";
import { merchantOverview } from "~/lib/journey.server";
import { storeLabel } from "~/lib/journey";
import { telHref, type SiteSettings } from "~/lib/site";
import { contactPage } from "~/lib/content.server";
import { CONTACT_OUTCOMES, type ContactFieldName, type ContactFieldRule, type ContactOutcome } from "~/lib/contact-form";
import { routeMeta } from "~/lib/meta";
import { routes } from "@omnibus/shared/route-table";
import type { Route } from "./+types/contact";
import { Boundary } from "~/lib/boundary";
import { StaticMarkup } from "~/lib/static-markup";
import routeCopy from "virtual:route-copy";

export const handle = { routeCopy };
export const meta = routeMeta;

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const entry = routes.find((route) => route.path === url.pathname.replace(/\/+$/, ""));
  const content = entry && contactPage(entry.id);
  if (!content) throw data(null, { status: 404 });
  // Only known codes: the page never echoes arbitrary text from its address.
  // (A refused post without JavaScript is this page again with the form's state: lib/form-state.ts.)
  const outcome = url.searchParams.get("outcome");
  return {
    ...content,
    outcome: CONTACT_OUTCOMES.includes(outcome as ContactOutcome) ? (outcome as ContactOutcome) : null,
    // A merchant sent here during onboarding (SPEC §4) is welcomed and shown the next step.
    welcome: entry.id === "contact-us" ? onboardingWelcome(request) : null,
    notice: noticeFrom(request),
  };
}

export default function ContactPage() {
  const { topic, page, form, outcome, welcome, notice } = useLoaderData<typeof loader>();
  return (
    <div className="bg-gray-50 dark:bg-gray-950">
      <Notice text={notice} />
      {welcome && <WelcomeBanner {...welcome} />}
      <div className="mx-auto grid max-w-7xl gap-12 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:gap-16 lg:py-24">
        {/* The words beside the form never move: the browser keeps the server's markup (lib/static-markup.tsx). */}
        <StaticMarkup>
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase dark:text-brand-400">{page.eyebrow}</p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight text-balance text-gray-900 sm:text-5xl dark:text-white">{page.heading}</h1>
          <p className="mt-6 text-lg leading-8 text-gray-600 dark:text-gray-300">{page.intro}</p>
          <ul className="mt-8 space-y-3">
            {page.points.map((point) => (
              <li key={point} className="flex gap-3 text-gray-700 dark:text-gray-300">
                <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 size-5 flex-none text-brand-600 dark:text-brand-400" fill="currentColor">
                  <path fillRule="evenodd" d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0z" clipRule="evenodd" />
                </svg>
                {point}
              </li>
            ))}
          </ul>
          {"openings" in page && page.openings.length > 0 && (
            <div className="mt-10">
              <DataTable
                caption={page.openingsTitle}
                columns={["Role", "Team", "Location", "Type"]}
                rows={page.openings.map((o) => [o.title, o.team, o.location, o.type])}
                layout="stack"
              />
            </div>
          )}
          <p className="mt-10 text-sm text-gray-600 dark:text-gray-400" data-contact-alternative>
            <ContactLinks text={form.alternative} />
          </p>
        </StaticMarkup>
        {/* The form hydrates on its own, after the rest of the page (lib/boundary.tsx). */}
        <Boundary>
          <ContactForm
            // A new page is a new form: its own status and field errors.
            key={topic}
            topic={topic}
            fields={page.fields as ContactFieldName[]}
            rules={form.fields as Record<ContactFieldName, ContactFieldRule>}
            messageLabel={page.messageLabel}
            messagePlaceholder={page.messagePlaceholder}
            submitLabel={form.submitLabel}
            sendingLabel={form.sendingLabel}
            privacyNote={form.privacyNote}
            privacyLink={form.privacyLink}
            outcomes={form.outcomes}
            genericError={form.genericError}
            initialOutcome={outcome}
          />
        </Boundary>
      </div>
    </div>
  );
}

/** The welcome for a signed-in merchant still in onboarding, else null (the overview comes from the edge: route edgeData). */
function onboardingWelcome(request: Request) {
  const overview = merchantOverview(request);
  if (!overview || !ONBOARDING_STATUSES.includes(overview.omnicustomerStatus)) return null;
  return {
    storeName: storeLabel(overview),
    pending: overview.omnicustomerStatus === "pending_initial_license_payment",
    email: overview.email ?? "",
    emailVerified: overview.emailVerified === true,
  };
}

/** The text with the site's support email and phone number as mailto: and tel: links. */
function ContactLinks({ text }: { text: string }) {
  const settings = (useRouteLoaderData("root") as { settings?: SiteSettings } | undefined)?.settings;
  const { email = "", phone = "" } = settings ?? {};
  const link = "font-semibold text-brand-700 underline underline-offset-2 hover:no-underline dark:text-brand-300";
  const parts = text.split(new RegExp(`(${[email, phone].filter(Boolean).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`));
  return (
    <>
      {parts.map((part, i) =>
        part === email ? (
          <a key={i} href={`mailto:${email}`} className={link}>
            {email}
          </a>
        ) : part === phone ? (
          <a key={i} href={telHref(phone)} className={link}>
            {phone}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}
