// Where the built console lives: the API serves this folder at /console.
export const consoleDir = new URL("./dist/", import.meta.url);
