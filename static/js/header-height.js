// The play screen fills the viewport under the site header (static/css/screen.css counts its
// height from --header-h). A menu in a longer language, or larger text, can wrap the header
// onto a second line: keep --header-h at the header's real height, so the tray and Draw /
// Pass / Undo stay on the screen. Without JavaScript the one-line height in the CSS stands.
(() => {
  const header = document.querySelector(".site-header");
  if (!header || !("ResizeObserver" in window)) return;
  const root = document.documentElement;
  new ResizeObserver(() => {
    root.style.setProperty("--header-h", `${header.getBoundingClientRect().height}px`);
  }).observe(header);
})();
