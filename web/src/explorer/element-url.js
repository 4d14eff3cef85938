// The URL of the module that defines <attention-explorer>, for the embed code's script tag: this module's
// own URL, which is the element's bundle wherever the element is bundled alone (dist/element/, dist/single/).
// The site's build, which bundles the element into its page, points it at dist/element/ instead
// (scripts/build-web.mjs: siteElementUrl).
export const ELEMENT_MODULE_URL = new URL(import.meta.url).href;
