/** Cooldown expiry per unavailable class. Pure: the clock is passed in. */
import type { FailureClass } from "../backends/contract.ts";
import type { CooldownTtls } from "../config/types.ts";

export type CooldownClass = "auth" | "capacity" | "transport" | "not_installed";

export function cooldownClass(failure: FailureClass): CooldownClass | undefined {
  if (failure === "auth" || failure === "capacity" || failure === "transport" || failure === "not_installed") return failure;
  return undefined;
}

export function cooldownUntil(cls: CooldownClass, ttls: CooldownTtls, now: number): number {
  const sec = { auth: ttls.authSec, capacity: ttls.capacitySec, transport: ttls.transportSec, not_installed: ttls.notInstalledSec }[cls];
  return now + sec * 1000;
}
