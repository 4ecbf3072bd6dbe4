/** The folder of the built console (`vite build` writes it); the API serves it at /console. */
export declare const consoleDir: URL;
