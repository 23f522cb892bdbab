// The studio's sign-in for browser tests: the operator's grant on an edge's
// SQLite database, and TOTP codes (RFC 6238) for the specs whose edge runs
// on 127.0.0.1, where no passkey can work (a WebAuthn RP ID must be a domain
// name); e2e/studio-passkey.spec.ts signs in with a passkey on localhost.
import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";

const edgeBin = path.join(import.meta.dirname, "..", "..", "edge", "bin", "edge");

/** `edge staff grant EMAIL --role ROLE [extra...]` on the edge whose SQLite is in dataDir. */
export function grantStaff(dataDir: string, email: string, role: string, ...extra: string[]) {
  execFileSync(edgeBin, ["staff", "grant", email, "--role", role, "--reason", "browser test", ...extra], {
    env: { ...process.env, OMNIBUS_ENV: "development", DATA_DIR: dataDir, DATABASE_URL: "" },
  });
}

function base32(s: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of s.replace(/=+$/, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The six-digit TOTP code of secret (base32) at time t (ms). */
export function totpCode(secret: string, t = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(t / 1000 / 30)));
  const h = createHmac("sha1", base32(secret)).update(counter).digest();
  const o = h[h.length - 1] & 0xf;
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/**
 * Opens a studio session for the signed-in merchant of request (an account
 * granted with --allow-totp, signed in within the last minutes): sets up the
 * authenticator app and confirms its first code, as the sign-in page does.
 */
export async function studioByTOTP(request: APIRequestContext, origin: string) {
  const headers = { Origin: origin, "Content-Type": "application/json" };
  const setup = await request.post("/api/v1/staff/enrol/totp", { headers, data: "" });
  if (!setup.ok()) throw new Error(`enrol totp: ${setup.status()} ${await setup.text()}`);
  const { secret } = await setup.json();
  const confirm = await request.post("/api/v1/staff/enrol/totp/confirm", { headers, data: { code: totpCode(secret) } });
  if (!confirm.ok()) throw new Error(`confirm totp: ${confirm.status()} ${await confirm.text()}`);
}
