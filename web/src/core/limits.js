// core.limits: every limit and name list the JS API checks against, read once from the C++ core, where
// each is defined once (a constexpr or an enum's name table next to the code that enforces it) and
// exported by cpp/bindings/bindings.cpp (coreLimits). The JS checks here only reject early, with the
// same bounds; the core enforces them again. Documented in index.d.ts (CoreLimits).

/** Deep-frozen copy of the module's limits object, so no caller can loosen a check by mutating it. */
export function frozenLimits(wasm) {
  const limits = wasm.coreLimits();
  for (const value of Object.values(limits)) {
    if (typeof value === 'object' && value !== null) Object.freeze(value);
  }
  return Object.freeze(limits);
}

/** The head-kind names the API accepts: the core's kinds and the aliases ('previous', 'next'). */
export function headKindNames(limits) {
  return [...limits.headKinds, ...Object.keys(limits.headKindAliases)];
}
