// torch-notes parallel view (docs/_ext/i18n/parallel_view.py): the sidebar button shows every unit's
// counterpart in the other language (html.parallel-view; the stylesheet does the rest). The choice
// is kept in localStorage, which both editions share (sibling folders on one origin), so it holds
// across pages and across the language switch; a small script in <head> applies it before the page
// is drawn. Without JavaScript the button stays hidden and so do the counterparts.
(() => {
  const KEY = "torch-notes-parallel-view";
  const root = document.documentElement;
  const buttons = () => document.querySelectorAll("button.parallel-view-toggle");
  const stored = () => {
    try {
      return localStorage.getItem(KEY) === "on";
    } catch (error) {
      return false; // storage disabled: the view still works on this page
    }
  };
  const show = (on) => {
    root.classList.toggle("parallel-view", on);
    buttons().forEach((button) => button.setAttribute("aria-pressed", String(on)));
  };
  const init = () => {
    buttons().forEach((button) => {
      button.hidden = false;
      button.addEventListener("click", () => {
        const on = !root.classList.contains("parallel-view");
        try {
          localStorage.setItem(KEY, on ? "on" : "off");
        } catch (error) {
          // not remembered, but shown
        }
        show(on);
      });
    });
    show(stored());
  };
  // Another tab changed the choice: follow it.
  window.addEventListener("storage", (event) => {
    if (event.key === KEY) show(event.newValue === "on");
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
