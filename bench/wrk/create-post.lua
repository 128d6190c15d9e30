-- Creating a post from the dashboard: POST /api/posts with a JSON body and the session cookie
-- (BENCH_COOKIE) on the app host (BENCH_HOST). BENCH_TITLES=unique gives every post a title of
-- its own (BENCH_RUN keeps them apart between runs); BENCH_TITLES=same gives every post the same
-- title, so each needs the next free address (launch-news, launch-news-2, …).
local host = os.getenv("BENCH_HOST")
local same = os.getenv("BENCH_TITLES") == "same"
local run = os.getenv("BENCH_RUN") or "0"
local n = 0
local headers = {
  ["Host"] = host,
  ["Origin"] = "http://" .. host,
  ["Cookie"] = os.getenv("BENCH_COOKIE"),
  ["Content-Type"] = "application/json",
  ["Accept"] = "application/json",
  ["User-Agent"] = "bench",
}
local content = "<p>" .. string.rep("The launch is on Friday, and the first chapter is free. ", 12) .. "</p>"

request = function()
  n = n + 1
  local title = same and "Launch news" or string.format("Launch news %s-%d", run, n)
  local body = string.format('{"title":"%s","content":"%s","category":"news"}', title, content)
  return wrk.format("POST", "/api/posts", headers, body)
end
