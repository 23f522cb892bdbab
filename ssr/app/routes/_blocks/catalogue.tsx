// What each /blocks page shows: the site's own components (imported from
// app/components, never copied) with the content that produces each example.
// A test (catalogue.test.tsx) renders every example and checks that each
// component is an export of a module under app/components.
import appCss from "~/theme.css?raw";
import twTheme from "tailwindcss/theme.css?raw";
import contact from "@omnibus/shared/content/contact.json";
import features from "@omnibus/shared/content/features.json";
import type footerContent from "@omnibus/shared/content/footer.json";
import type landingContent from "@omnibus/shared/content/landing.json";
import logos from "@omnibus/shared/content/logos.json";
import pages from "@omnibus/shared/content/pages.json";
import { Field, SubmitButton } from "~/components/auth/form-parts";
import { FeatureGrid } from "~/components/blocks/feature-grid";
import { FEATURE_ICON_NAMES, FeatureIconSheet } from "~/components/blocks/feature-icons";
import { ColorTokens, themeTokens, TypeTokens } from "~/components/catalogue/design-tokens";
import { ContactForm, type ContactFormProps } from "~/components/contact/contact-form";
import { ArticleList } from "~/components/content/article-list";
import { BackLink } from "~/components/content/back-link";
import { Prose } from "~/components/content/prose";
import { Footer } from "~/components/footer/footer";
import { FooterCta } from "~/components/footer/footer-cta";
import { AiSection } from "~/components/landing/ai-section";
import { FeaturesSection } from "~/components/landing/features-section";
import { LogoStrip } from "~/components/landing/logo-strip";
import { Reasons } from "~/components/landing/reasons";
import { SectionHeading } from "~/components/landing/section-heading";
import { SuccessStory } from "~/components/landing/success-story";
import { Navbar } from "~/components/navbar/navbar";
import { FallingStars } from "~/components/stars/falling-stars";
import { ThemeSwitcher } from "~/components/theme-switcher";
import { Accordion } from "~/components/ui/accordion";
import { Avatar, AvatarGroup } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import { CardGrid } from "~/components/ui/card-grid";
import { DataTable } from "~/components/ui/data-table";
import { Gallery } from "~/components/ui/gallery";
import { Image } from "~/components/ui/image";
import { Modal } from "~/components/ui/modal";
import { Popover } from "~/components/ui/popover";
import { PricingPlans, type Plan } from "~/components/ui/pricing-plans";
import { CardSkeleton } from "~/components/ui/skeleton";
import { Stats } from "~/components/ui/stats";
import { TagList } from "~/components/ui/tag";
import { Tabs } from "~/components/ui/tabs";
import { Team } from "~/components/ui/team";
import { Testimonials } from "~/components/ui/testimonials";
import { Video } from "~/components/ui/video";
import type { ArticleSummary } from "~/lib/front-matter";
import { example, type Block, type ComponentHome } from "./showcase";
import { cataloguePlans } from "~/lib/plans";

/** Server data some examples need (articles are read on the server). */
export interface CatalogueData {
  articles: ArticleSummary[];
  proseHtml: string;
  /** Content with the site's settings filled in (links like {scheduleDemoUrl}). */
  landing: typeof landingContent;
  footer: typeof footerContent;
  /** Per route id, per example: where its component lives (catalogue-data.server.ts). */
  homes?: Record<string, (ComponentHome | null)[]>;
}


type PageSection = { heading: string; items?: { title: string; text: string; link?: { label: string; to?: string; url?: string } }[]; plans?: Plan[]; faqs?: { question: string; answer: string }[] };
const sectionsOf = (id: keyof typeof pages.pages) => ((pages.pages[id] as { sections?: PageSection[] }).sections ?? []);
const plans = cataloguePlans();
const faqs = sectionsOf("old-pricing").flatMap((s) => s.faqs ?? []);
const forgeItems = sectionsOf("forge").flatMap((s) => s.items ?? []);

const people = [
  { name: "Ananya Rao", role: "Head of merchant success", bio: "Helped 2,000 stores move their catalogue to Omnibus." },
  { name: "Vikram Shah", role: "Platform engineering" },
  { name: "Meera Iyer", role: "Design lead" },
  { name: "Farhan Qureshi", role: "Partnerships" },
  { name: "Lakshmi Nair", role: "Support, Bangalore" },
];
const testimonialsOf = (landing: typeof landingContent) => [
  { quote: landing.story.quote, name: landing.story.author, role: landing.story.role },
  { quote: "We run three shops and the marketplace from one stock count. Overselling stopped the first week.", name: "Rohan Mehta", role: "Founder, Pedal Pune" },
  { quote: "The AI writes a first draft of every product page; we edit and publish in minutes.", name: "Sara Thomas", role: "Owner, Sutra Jewels" },
];
const orders = {
  caption: "Orders this week",
  columns: ["Order", "Channel", "Status", "Total"],
  rows: [
    ["#1042", "Website", "Shipped", "₹2,450"],
    ["#1043", "Point of sale", "Paid", "₹890"],
    ["#1044", "Marketplace", "Partly fulfilled", "₹5,120"],
    ["#1045", "Mobile app", "Refunded", "₹1,300"],
  ],
};
const contactProps = (overrides: Partial<ContactFormProps> = {}): ContactFormProps => {
  const page = contact.pages["contact-us"];
  return {
    topic: "contact-us",
    fields: page.fields as ContactFormProps["fields"],
    rules: contact.fields,
    messageLabel: page.messageLabel,
    messagePlaceholder: page.messagePlaceholder,
    submitLabel: contact.submitLabel,
    sendingLabel: contact.sendingLabel,
    privacyNote: contact.privacyNote,
    privacyLink: contact.privacyLink,
    outcomes: contact.outcomes,
    genericError: contact.genericError,
    ...overrides,
  };
};

/** The blocks by route id; `examples` may need the loader's data. */
export function catalogue(data: Omit<CatalogueData, "homes">): Record<string, Block> {
  const { landing, footer } = data;
  const testimonials = testimonialsOf(landing);
  const screenshot = landing.hero.screenshot;
  return {
    "blocks-avatars": {
      intro: "A person's picture, or their initials when there is none; groups overlap and count the rest.",
      examples: [
        example({ title: "Sizes, with initials", component: AvatarGroup, props: { people: people.slice(0, 3), max: 3, size: "lg" as const } }),
        example({ title: "Group with a count", component: AvatarGroup, props: { people, max: 3 } }),
        example({ title: "Single avatar", component: Avatar, props: { name: "Kaveri Handlooms", size: "md" as const } }),
      ],
    },
    "blocks-buttons": {
      intro: "The one button: a link or a button, in three styles and three sizes, with disabled and busy states.",
      examples: [
        example({ title: "Primary, as a link", component: Button, props: { label: "Get Started", to: "/register", variant: "primary" as const, size: "lg" as const } }),
        example({ title: "Secondary, external link", component: Button, props: { label: "Schedule Demo", url: "https://calendly.com/omnibus/demo", variant: "secondary" as const } }),
        example({ title: "Ghost, small", component: Button, props: { label: "Learn more", to: "/features", variant: "ghost" as const, size: "sm" as const } }),
        example({ title: "Medium, disabled", component: Button, props: { label: "Create Store", size: "md" as const, disabled: true } }),
        example({ title: "Busy", component: Button, props: { label: "Save", busy: true, busyLabel: "Saving…", size: "md" as const } }),
      ],
    },
    "blocks-call": {
      intro: "Calls to action: the block above the footer and the landing page's three reasons.",
      examples: [
        example({ title: "Footer call to action", component: FooterCta, props: { cta: footer.cta }, source: "shared/content/footer.json → cta" }),
        example({ title: "Three reasons with two calls to action", component: Reasons, props: { reasons: landing.reasons }, source: "shared/content/landing.json → reasons" }),
      ],
    },
    "blocks-cards": {
      intro: "Cards with a title, a text and an optional link, as content pages list their items.",
      examples: [
        example({ title: "Three columns", component: CardGrid, props: { items: forgeItems }, source: "shared/content/pages.json → forge" }),
        example({ title: "Two columns", component: CardGrid, props: { items: forgeItems.slice(0, 2), columns: 2 as const } }),
      ],
    },
    "blocks-colors": {
      intro: "The colour tokens of theme.css's @theme (brand and accent) and the grey scale the site uses, read from the stylesheets.",
      examples: [
        example({ title: "Brand and accent", component: ColorTokens, props: { tokens: themeTokens(appCss, "--color-") }, source: "ssr/app/theme.css @theme" }),
        example({ title: "Greys", component: ColorTokens, props: { tokens: themeTokens(twTheme, "--color-gray-") }, source: "tailwindcss/theme.css" }),
      ],
    },
    "blocks-content": {
      intro: "Article text rendered from Markdown, and the headings of content sections.",
      examples: [
        example({ title: "Article body (Markdown → HTML)", component: Prose, props: { html: data.proseHtml }, note: "Articles are Markdown files in shared/content/blog and shared/content/help; the server turns them into this HTML." }),
        example({ title: "Section heading", component: SectionHeading, props: { titleId: "demo-section-title", eyebrow: landing.features.eyebrow, title: landing.features.title, text: landing.features.text } }),
      ],
    },
    "blocks-counters": {
      intro: "Figures with their labels.",
      examples: [
        example({ title: "Plain", component: Stats, props: { stats: landing.story.stats }, source: "shared/content/landing.json → story.stats" }),
        example({ title: "Cards", component: Stats, props: { tone: "card" as const, stats: [...landing.story.stats, { value: "99.99%", label: "Uptime" }] } }),
      ],
    },
    "blocks-features": {
      intro: "The one feature-block component: by default at most 6 items in 4 columns; the landing page asks for 3 columns and 8.",
      examples: [
        example({ title: "Defaults (6 items, 4 columns)", component: FeatureGrid, props: { items: features.features }, source: "shared/content/features.json" }),
        example({ title: "Landing page (8 items, 3 columns)", component: FeatureGrid, props: { items: features.features, limit: 8, columns: 3 } }),
      ],
    },
    "blocks-footer": {
      intro: "The site footer, with and without its call-to-action block.",
      examples: [
        example({ title: "With the call to action", component: Footer, props: { showCta: true, newsletterId: "newsletter-demo-1", navLabel: "Footer (example with call to action)" }, source: "shared/content/footer.json, site.json" }),
        example({ title: "Without it", component: Footer, props: { showCta: false, newsletterId: "newsletter-demo-2", navLabel: "Footer (example without call to action)" } }),
      ],
    },
    "blocks-forms": {
      intro: "The real contact form, its fields with their error states and the busy submit button.",
      examples: [
        example({ title: "Contact form", component: ContactForm, props: contactProps(), source: "shared/content/contact.json" }),
        example({ title: "Field with an error", component: Field, props: { id: "demo-email", label: "E-mail", type: "email", defaultValue: "not-an-email", error: "Please enter a valid e-mail address" } }),
        example({ title: "Field with a hint", component: Field, props: { id: "demo-store", label: "Store name", hint: "Your store's address will be omnibus.store/your-name", defaultValue: "" } }),
        example({ title: "Submit button, busy", component: SubmitButton, props: { busy: true, label: "Create store", busyLabel: "Creating your store…" } }),
      ],
    },
    "blocks-gallery": {
      intro: "Pictures with captions; each has its dark-mode variant when given.",
      examples: [
        example({
          title: "Two columns",
          component: Gallery,
          props: {
            columns: 2 as const,
            images: [
              { ...screenshot, caption: "The admin console (switches with the theme)" },
              { src: "/og-image.jpg", alt: "Omnibus: sell everywhere from one platform", width: 1200, height: 630, caption: "Social card" },
            ],
          },
        }),
      ],
    },
    "blocks-icons": {
      intro: "The feature icons: strokes that take the text colour.",
      examples: [example({ title: "Every icon", component: FeatureIconSheet, props: { names: FEATURE_ICON_NAMES } })],
    },
    "blocks-images": {
      intro: "Images keep their size while loading, use their dark variant in dark mode and fall back to a placeholder of the same size.",
      examples: [
        example({ title: "With a dark variant", component: Image, props: { ...screenshot, className: "h-auto w-full rounded-xl" }, source: "shared/content/landing.json → hero.screenshot" }),
        example({ title: "The placeholder", component: Image, props: { src: "/images/placeholder.svg", alt: "Placeholder", width: 320, height: 180, className: "h-auto max-w-full" } }),
        example({ title: "Logo strip", component: LogoStrip, props: { logos: logos.logos, width: logos.width, height: logos.height, limit: 5 }, source: "shared/content/logos.json" }),
      ],
    },
    "blocks-modals": {
      intro: "A native <dialog>: focus moves in and back, Escape closes it, the page behind is inert.",
      examples: [
        example({
          title: "Dialog with an action",
          component: Modal,
          props: { triggerLabel: "Book a demo", title: "See Omnibus in 30 minutes", body: ["A product specialist walks you through selling online, in store and on the marketplace."], action: { label: "Pick a time", to: "/contact-us" } },
        }),
        example({ title: "Information", component: Modal, props: { triggerLabel: "What is partial fulfilment?", title: "Partial fulfilment", body: ["Ship what is in stock now and the rest later; the customer is told at each step."], variant: "secondary" as const } }),
      ],
    },
    "blocks-navbar": {
      intro: "The navigation bars of the three layouts. On phones the links move into a menu.",
      examples: [
        example({ title: "Default layout", component: Navbar, props: { variant: "default" as const, label: "Example navigation (default)", sticky: false }, source: "shared/content/navigation.json" }),
        example({ title: "Inverted (contact pages)", component: Navbar, props: { variant: "inverted" as const, label: "Example navigation (inverted)", sticky: false } }),
        example({ title: "Minimal (sign-in pages)", component: Navbar, props: { variant: "minimal" as const, label: "Example navigation (minimal)", sticky: false } }),
      ],
    },
    "blocks-navtabs": {
      intro: "Tabs: arrow keys, Home and End move between them. Without JavaScript every panel shows.",
      examples: [
        example({
          title: "Channels",
          component: Tabs,
          props: {
            label: "Sales channels",
            tabs: [
              { label: "Website", text: ["Your own store on your own domain, with themes you can edit."] },
              { label: "Point of sale", text: ["Sell in person; stock and orders stay in step with the website."] },
              { label: "Mobile app", text: ["Your store as an app your customers install."] },
              { label: "Marketplace", text: ["List on the large online marketplace from the same catalogue."] },
            ],
          },
        }),
      ],
    },
    "blocks-placeholder": {
      intro: "What shows while content streams in, and the image placeholder.",
      examples: [
        example({ title: "Loading cards", component: CardSkeleton, props: { count: 3, label: "Loading example cards" } }),
        example({ title: "Missing image", component: Image, props: { src: "/images/placeholder.svg", alt: "", width: 240, height: 135 } }),
      ],
    },
    "blocks-plugins": {
      intro: "Small pieces that add behaviour: the theme switcher and the falling-star effect (40 stars).",
      examples: [
        example({ title: "Theme switcher", component: ThemeSwitcher, props: {} }),
        example({ title: "Falling stars", component: FallingStars, props: { className: "relative block h-48 rounded-xl bg-gray-950" } }),
      ],
    },
    "blocks-popover": {
      intro: "A native popover: opens and closes without JavaScript; Escape and a click outside close it.",
      examples: [
        example({ title: "Explanation", component: Popover, props: { triggerLabel: "What is one-click shipping?", title: "One-click shipping", text: "Book a courier for an order from the order page: label, pickup and tracking in one step." } }),
        example({ title: "Primary trigger", component: Popover, props: { triggerLabel: "Uptime", title: "Over 99.99% uptime", text: "Measured monthly across every store.", variant: "primary" as const } }),
      ],
    },
    "blocks-sections": {
      intro: "The landing page's sections.",
      examples: [
        example({ title: "Feature section", component: FeaturesSection, props: { section: landing.features, items: features.features }, source: "shared/content/landing.json → features" }),
        example({ title: "AI section", component: AiSection, props: { ai: landing.ai }, source: "shared/content/landing.json → ai" }),
        example({ title: "Success story", component: SuccessStory, props: { story: landing.story }, source: "shared/content/landing.json → story" }),
      ],
    },
    "blocks-table": {
      intro: "A data table with a caption; it scrolls sideways on narrow screens.",
      examples: [example({ title: "Orders", component: DataTable, props: orders })],
    },
    "blocks-tableflex": {
      intro: "The flexible table: on phones each row becomes a card of label and value.",
      examples: [example({ title: "Orders, stacked on phones", component: DataTable, props: { ...orders, layout: "stack" as const } })],
    },
    "blocks-tags": {
      intro: "Small labels for categories and statuses.",
      examples: [
        example({ title: "Colours", component: TagList, props: { label: "Order statuses", tags: [{ label: "Paid", color: "green" as const }, { label: "Pending", color: "amber" as const }, { label: "Refunded", color: "red" as const }, { label: "New", color: "brand" as const }, { label: "Archived" }] } }),
        example({ title: "Links", component: TagList, props: { label: "Topics", tags: [{ label: "Growth", to: "/blog", color: "brand" as const }, { label: "Help centre", to: "/help-centre" }] } }),
      ],
    },
    "blocks-team": {
      intro: "People with their roles.",
      examples: [
        example({ title: "Grid", component: Team, props: { members: people.slice(0, 4) } }),
        example({ title: "List with bios", component: Team, props: { members: people.slice(0, 2), layout: "list" as const } }),
      ],
    },
    "blocks-testimonials": {
      intro: "Quotes from merchants.",
      examples: [example({ title: "Grid", component: Testimonials, props: { items: testimonials } })],
    },
    "blocks-typography": {
      intro: "Font stacks from theme.css's @theme and the type scale from Tailwind's theme, read from the stylesheets.",
      examples: [
        example({ title: "Fonts", component: TypeTokens, props: { tokens: themeTokens(appCss, "--font-"), sample: "Sell everywhere from one platform" }, source: "ssr/app/theme.css @theme" }),
        example({
          title: "Sizes",
          component: TypeTokens,
          // The scale up to 6xl, the largest size the site uses.
          props: { tokens: themeTokens(twTheme, "--text-").filter((t) => !t.name.endsWith("--line-height")).slice(0, 10), sample: "Omnibus" },
          source: "tailwindcss/theme.css",
        }),
      ],
    },
    "blocks-utilities": {
      intro: "Small helpers: the back link of article pages and a link back to the top.",
      examples: [
        example({ title: "Back link", component: BackLink, props: { to: "/blocks", label: "Back to the catalogue" } }),
        example({ title: "Back to top", component: Button, props: { label: "Back to top", to: "#main", variant: "ghost" as const, size: "sm" as const } }),
      ],
    },
    "blocks-video": {
      intro: "A video as a poster linking to where it plays: nothing from the video host loads until asked.",
      examples: [
        example({ title: "Product tour", component: Video, props: { title: "A tour of the admin console", url: "https://www.youtube.com/@omnibus", duration: "3:42", poster: { src: screenshot.src, darkSrc: screenshot.darkSrc, width: screenshot.width, height: screenshot.height }, caption: "Three minutes: orders, stock and campaigns in one place." } }),
      ],
    },

    "blocks-advanced-testimonials": {
      intro: "A single large quote, and several in a grid.",
      examples: [
        example({ title: "Single", component: Testimonials, props: { items: testimonials.slice(0, 1), layout: "single" as const } }),
        example({ title: "Grid", component: Testimonials, props: { items: testimonials } }),
      ],
    },
    "blocks-advanced-pricing": {
      intro: "The real plans, from the pricing page's content.",
      examples: [example({ title: "Plans", component: PricingPlans, props: { plans }, source: "shared/content/plans.json" })],
    },
    "blocks-advanced-features": {
      intro: "The landing page's feature section and the full grid.",
      examples: [
        example({ title: "Feature section", component: FeaturesSection, props: { section: landing.features, items: features.features }, source: "shared/content/landing.json, features.json" }),
        example({ title: "Every feature, 3 columns", component: FeatureGrid, props: { items: features.features, limit: 9, columns: 3 } }),
      ],
    },
    "blocks-advanced-faq": {
      intro: "An accordion on native <details>; with `exclusive`, opening one closes the others.",
      examples: [
        example({ title: "Pricing questions", component: Accordion, props: { items: faqs, exclusive: true }, source: "shared/content/plans.json" }),
      ],
    },
    "blocks-advanced-content": {
      intro: "A content section: heading, then cards.",
      examples: [
        example({ title: "Heading", component: SectionHeading, props: { titleId: "demo-content-title", eyebrow: "Forge", title: pages.pages.forge.heading, text: pages.pages.forge.intro, centered: true } }),
        example({ title: "Cards", component: CardGrid, props: { items: forgeItems } }),
      ],
    },
    "blocks-advanced-contact": {
      intro: "The contact form as /contact-us shows it.",
      examples: [example({ title: "Contact us", component: ContactForm, props: contactProps(), source: "shared/content/contact.json" })],
    },
    "blocks-advanced-company": {
      intro: "Company facts and the people behind them.",
      examples: [
        example({ title: "In numbers", component: Stats, props: { tone: "card" as const, stats: [{ value: "2022", label: "Founded in Bangalore" }, ...landing.story.stats] } }),
        example({ title: "Team", component: Team, props: { members: people.slice(0, 4) } }),
      ],
    },
    "blocks-advanced-clients": {
      intro: "The client-logo strip with its default limit (8).",
      examples: [example({ title: "Client logos", component: LogoStrip, props: { logos: logos.logos, width: logos.width, height: logos.height }, source: "shared/content/logos.json" })],
    },
    "blocks-advanced-blog": {
      intro: "The real articles as the blog lists them.",
      examples: [
        example({ title: "Magazine", component: ArticleList, props: { articles: data.articles, readMore: pages.labels.readMore, layout: "magazine" as const }, source: "shared/content/blog/*.md" }),
        example({ title: "Compact", component: ArticleList, props: { articles: data.articles, readMore: pages.labels.readMore, layout: "compact" as const } }),
      ],
    },
  };
}
