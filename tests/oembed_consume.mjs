// A real oEmbed consumer (npm @extractus/oembed-extractor) over an address: it finds the page's
// discovery link and reads the answer it names, as a document editor or a wiki would. Prints its JSON.
import {extract} from "@extractus/oembed-extractor";

process.stdout.write(JSON.stringify(await extract(process.argv[2])));
