import { analyzeAccount, createAccountModel } from "../src/index.ts";
import { generateAccount, SIZES } from "./generate-account.ts";

const model = createAccountModel(generateAccount(SIZES.large));
const t = performance.now();
const a = analyzeAccount(model);
console.log("analyze", performance.now() - t, a.stats);
