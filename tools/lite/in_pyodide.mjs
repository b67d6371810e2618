// Run Python code in the site's own Pyodide under Node, with a folder of this machine mounted at /work.
//
//     node tools/lite/in_pyodide.mjs PYODIDE_FOLDER FOLDER CODE      (tools/lite/build.py does this)
//
// PYODIDE_FOLDER is npm's pyodide package unpacked. build.py compiles the site's Python to bytecode
// with it: bytecode is read only by the Python that wrote it, so it must be this Pyodide's. It also imports
// the built site's preloaded packages in the site's own Pyodide, to refuse a site where one fails.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideFolder, folder] = process.argv.slice(2, 4).map((path) => resolve(path));
const code = process.argv[4];
const { loadPyodide } = await import(pathToFileURL(`${pyodideFolder}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideFolder}/` });
pyodide.FS.mkdir("/work");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: folder }, "/work");
try {
  await pyodide.runPythonAsync(code);
} catch (error) {
  console.error(error.message); // Python's traceback, without Node's print of the minified line that threw
  process.exit(1);
}
