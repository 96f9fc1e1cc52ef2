// The site's menu on a phone: the header shows the brand and a Menu button,
// and the button opens the links below them (docs/development.md). On a
// wider screen the button is not shown and the links stay in the header;
// without this script the button stays hidden and the links are all listed.

const button = document.getElementById("menu-button");
const header = button && button.closest(".site-header");

function setOpen(open) {
  button.setAttribute("aria-expanded", String(open));
  header.classList.toggle("menu-open", open);
}

if (header) {
  header.classList.add("has-menu");
  button.hidden = false;
  button.addEventListener("click", () => setOpen(button.getAttribute("aria-expanded") !== "true"));
  // Escape closes the open menu and gives the focus back to its button.
  header.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !header.classList.contains("menu-open")) return;
    setOpen(false);
    button.focus();
  });
}
