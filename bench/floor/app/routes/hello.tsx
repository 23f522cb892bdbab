export const meta = () => [
  { title: "Floor — a bare React Router page" },
  { name: "description", content: "The measuring floor of make lighthouse." },
  { name: "robots", content: "noindex" },
];

export function loader() {
  return { greeting: "Hello" };
}

export default function Hello({ loaderData }: { loaderData: { greeting: string } }) {
  return (
    <main>
      <h1>{loaderData.greeting}</h1>
      <p>A bare React Router 7 page: the same framework set-up as the site, none of its code.</p>
    </main>
  );
}
