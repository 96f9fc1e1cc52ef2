// The one DOM helper every view uses.

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

export function byId(id) {
  return document.getElementById(id);
}
