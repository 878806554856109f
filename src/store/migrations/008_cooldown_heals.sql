-- 008: whether an auth cooldown may be lifted early by the CLI's sign-in probe. Set only when that
-- probe itself said "signed out" when the cooldown was armed (a refusal before launch, or a fresh
-- probe after a run's auth failure): then a later "signed in" from the same probe means the person
-- signed in. Where the probe said "ready" and the run still failed auth (a key it counts but the
-- provider refuses), its "ready" proves nothing, and the cooldown runs its course.
ALTER TABLE cooldowns ADD COLUMN heals INTEGER NOT NULL DEFAULT 0;
