// A search box above each select marked data-zone-search (the time-zone
// picker of the profile and of the admin): typing keeps the zones whose
// label holds the words typed, in any case and with or without accents,
// and the region groups left with none are hidden. The label of the box is
// the attribute's value, in the page's language. Without the script the
// select works as it is, grouped by region.
const fold = (text) =>
  text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();

function searchable(select) {
  const box = document.createElement("input");
  box.type = "search";
  box.className = "zone-search";
  box.placeholder = select.dataset.zoneSearch;
  box.setAttribute("aria-label", select.dataset.zoneSearch);
  box.setAttribute("aria-controls", select.id);
  select.before(box);
  const options = [...select.options].map((option) => [option, fold(option.text)]);
  box.addEventListener("input", () => {
    const words = fold(box.value).split(/\s+/).filter(Boolean);
    let first = null;
    for (const [option, text] of options) {
      const shown = option.value === "" || words.every((word) => text.includes(word));
      option.hidden = !shown;
      if (shown && option.value !== "" && first === null) first = option;
    }
    for (const group of select.querySelectorAll("optgroup")) {
      group.hidden = ![...group.children].some((option) => !option.hidden);
    }
    // The first zone found is chosen, so that the choice is one tap away.
    if (words.length && first !== null) select.value = first.value;
  });
}

function start() {
  for (const select of document.querySelectorAll("select[data-zone-search]")) {
    searchable(select);
  }
}

// The admin loads it as a plain script in the page's head.
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
