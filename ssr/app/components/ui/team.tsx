// People: name, role and picture (or initials).
import { Avatar } from "./avatar";

export interface TeamMember {
  name: string;
  role: string;
  image?: string;
  bio?: string;
}

export function Team({ members, layout = "grid" }: { members: TeamMember[]; layout?: "grid" | "list" }) {
  return (
    <ul className={layout === "grid" ? "grid gap-8 sm:grid-cols-2 lg:grid-cols-4" : "divide-y divide-gray-200 dark:divide-white/10"}>
      {members.map((m) => (
        <li key={m.name} className={layout === "grid" ? "flex flex-col items-center text-center" : "flex items-start gap-4 py-5"}>
          <Avatar name={m.name} image={m.image} size="lg" />
          <div className={layout === "grid" ? "mt-4" : ""}>
            <p className="font-semibold text-gray-900 dark:text-white">{m.name}</p>
            <p className="text-sm text-brand-700 dark:text-brand-300">{m.role}</p>
            {m.bio && <p className="mt-2 text-sm text-gray-600 dark:text-gray-400">{m.bio}</p>}
          </div>
        </li>
      ))}
    </ul>
  );
}
