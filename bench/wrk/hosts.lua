-- Home pages of BENCH_SITES author hosts (site0000.localhost … ), each request naming the next
-- host in turn. With BENCH_ONCE=1 the thread stops once every host has answered once: a first
-- pass over cold sites, every page rendered once (run it with one thread). wrk's own clock runs
-- for its whole -d duration, so the script then interrupts wrk (SIGINT, as Ctrl-C would): wrk
-- reports the requests, rate and latency over the pass alone.
local sites = tonumber(os.getenv("BENCH_SITES"))
local port = os.getenv("BENCH_PORT")
local once = os.getenv("BENCH_ONCE") == "1"
local i = -1
local answered = 0

request = function()
  i = (i + 1) % sites
  local host = string.format("site%04d.localhost:%s", i, port)
  return wrk.format("GET", "/", { ["Host"] = host, ["User-Agent"] = "bench" })
end

if once then
  local ffi = require("ffi")
  ffi.cdef([[
    int getpid(void);
    int kill(int pid, int sig);
  ]])
  response = function()
    answered = answered + 1
    if answered == sites then
      wrk.thread:stop()
      ffi.C.kill(ffi.C.getpid(), 2)
    end
  end
end
