/**
 * Takes a page's JavaScript out of the critical rendering path. React hoists React Router's
 * `<link rel="modulepreload">` tags into <head>, where ~120 KB of modules compete with the
 * stylesheet and the hero image on a phone's connection. This drops the preloads and starts the
 * hydration module once the page has loaded. Until then the page is complete HTML and its forms
 * post normally, exactly as with JavaScript off.
 */
const MODULEPRELOAD = /<link rel="modulepreload"[^>]*\/?>/g;
// React Router's boot module, whatever the order of its attributes (a nonce may come first).
const BOOT_SCRIPT = /<script(?=[^>]*\btype="module")(?=[^>]*\basync="")([^>]*)>([\s\S]*?)<\/script>/;

export function deferHydration(html: string) {
  const boot = BOOT_SCRIPT.exec(html);
  if (!boot) return html;
  const [whole, attributes = "", code] = boot;
  const nonce = /\bnonce="([^"]*)"/.exec(attributes)?.[1];
  const nonceAttribute = nonce ? ` nonce="${nonce}"` : "";
  const loader =
    `<script type="text/x-deferred-module" id="rr-boot">${code}</script>` +
    `<script${nonceAttribute}>(function(){var nonce=document.currentScript&&document.currentScript.nonce;` +
    `function boot(){var script=document.createElement("script");script.type="module";if(nonce)script.nonce=nonce;` +
    `script.textContent=document.getElementById("rr-boot").textContent;document.head.appendChild(script)}` +
    `if(document.readyState==="complete")boot();else addEventListener("load",boot,{once:true})})()</script>`;
  return html.replace(MODULEPRELOAD, "").replace(whole, () => loader);
}
