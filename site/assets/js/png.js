// "PNG" buttons: the reader's browser draws a chart's build-time SVG (which carries the chart's
// context: title, legend, sources, address and data hash) onto a canvas at PNG_SCALE pixels per
// CSS pixel and saves it. The build draws SVGs only: rasterising every chart at build time cost
// ~47 ms of CPU each (README, "The build at scale"). Without JavaScript the buttons stay hidden.
export const PNG_SCALE = 2;

// The PNG of the SVG at `url` (same origin: the canvas stays readable), as a Blob.
export async function pngOfSvg(url, {scale = PNG_SCALE, document = globalThis.document} = {}) {
  const image = new Image();
  image.src = url;
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(image.naturalWidth * scale);
  canvas.height = Math.round(image.naturalHeight * scale);
  const context = canvas.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("the browser made no PNG"))), "image/png"));
}

async function save(button) {
  button.disabled = true;
  try {
    const blob = await pngOfSvg(button.dataset.png);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = button.dataset.name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  } catch (error) {
    button.title = `No PNG: ${error.message}`;
  } finally {
    button.disabled = false;
  }
}

for (const button of document.querySelectorAll("button[data-png]")) {
  button.hidden = false;
  button.addEventListener("click", () => save(button));
}
