import { test as setup, expect } from "@playwright/test";
import { DEMO_ACCOUNTS, storageStateFor } from "./accounts";

// Sign in once per demo account and keep the cookies; specs pick a role with test.use({ storageState }).
for (const account of DEMO_ACCOUNTS) {
  setup(`sign in as ${account.role}`, async ({ request, baseURL }) => {
    const res = await request.post("/api/auth/sign-in/email", {
      data: { email: account.email, password: account.password },
      headers: { origin: baseURL! },
    });
    expect(res.status(), await res.text()).toBe(200);
    await request.storageState({ path: storageStateFor(account.role) });
  });
}
