// torch-notes language switcher: open the same page in the other language,
// or that language's home page when the page does not exist there. The query
// string and the fragment come along, so the search page keeps its query.
document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a.language-switcher-link");
  if (!link || window.location.protocol === "file:") return; // file:// cannot be probed: follow the link
  event.preventDefault();
  const target = link.href + window.location.search + window.location.hash;
  fetch(link.href, { method: "HEAD" })
    .then((response) => window.location.assign(response.ok ? target : link.dataset.home))
    .catch(() => window.location.assign(link.dataset.home));
});
