-- The dashboard's book list as a signed-in author asks it: GET /api/books with the session
-- cookie (BENCH_COOKIE) on the app host (BENCH_HOST).
local headers = {
  ["Host"] = os.getenv("BENCH_HOST"),
  ["Cookie"] = os.getenv("BENCH_COOKIE"),
  ["Accept"] = "application/json",
  ["User-Agent"] = "bench",
}

request = function()
  return wrk.format("GET", "/api/books", headers)
end
