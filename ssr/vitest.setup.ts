// Testing Library's waitFor/findBy* give up after 1 s by default. On a busy
// 2-core machine a whole page can take longer than that to render in jsdom, so
// the tests wait for their condition up to the test's own time budget
// instead: a real hang still fails, a slow machine does not.
import { configure } from "@testing-library/dom";

configure({ asyncUtilTimeout: 15_000 });
