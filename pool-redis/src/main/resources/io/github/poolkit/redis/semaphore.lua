-- One cluster-wide weighted semaphore: every state change is one run of this script (atomic in Redis).
--
-- KEYS (one hash slot: all carry the same {name} tag)
--   1 meta       hash   size, used, seq (the last queue ticket), fence (the last fencing token), waiting (the
--                       length of the queue), reapAt (below), and one field per lease: l:<id> -> "weight token expiry"
--   2 queue      zset   waiter id -> ticket (FIFO order)
--   3 waiters    hash   waiter id -> "weight leaseMs owner"
--   4 waiterExp  zset   waiter id -> expiry (server ms), pushed on by the owner's heartbeat
--   5 done       string (release, releaseFrom and resize only) <prefix>op:<op id>, the record of that operation
--                       (below)
-- ARGV
--   1 op, 2 size to set when none is stored, 3 lease ms of the caller (also how long its place in line lasts
--   without renewal; for release, releaseFrom and resize, which make no lease, how long the record of the operation
--   lasts: the longer of the caller's lease time and command timeout), 4.. the op's arguments
-- Ids are "owner:counter"; an owner hears of its grants on the channel <prefix>grants:<owner>.
--
-- Operation ids: a run may come twice. Lettuce sends again, after a reconnect, every command whose answer it had not
-- read, although Redis may have run it; the caller reads only the answer of the last run. So every acquire, release,
-- releaseFrom and resize carries an id unique to that operation, and a run whose operation already took effect
-- returns what the first run did and changes nothing:
--   acquire      its op id is the request's id, and the effect of its first run is kept under that id: a lease
--                l:<id> (granted) or a place in 'queue' (queued). A run that finds either answers {1, token} or
--                {2, ticket} from it. (A first run that was refused or too large changed nothing; running it again is
--                as if it had come once.) So a request is never counted twice, nor both leased and queued.
--                A second run that comes after the first run's lease (or place) expired and was reaped finds neither
--                and is granted, or queued, anew under the same id: a stranger. Nobody holds or awaits it: the request
--                settled on the first grant (told on its grant channel while only the commands connection was down) or
--                gave up, and a settled request takes no later answer for its own. Its holder still renews by that id,
--                though: so heartbeat, release and releaseFrom carry the token the holder knows, and one that finds
--                another token (or a place in line) under the id reports the holder's lease lost, as expired, instead
--                of taking the stranger for it; all three also give the stranger back (a stranger whose
--                holder has stopped renewing expires after a lease time, as any lease).
--   release,     a run that takes effect sets KEYS[5] to 1 for ARGV[3] ms (SET PX), and a run that finds nothing of its
--   releaseFrom  holder's to release (no lease, or a stranger's) answers {1} when KEYS[5] is set (its first run
--                released it) instead of "no such lease". So
--                a release sent twice never reports an expiry that did not happen, and never releases twice. (The
--                record outlasts the command timeout: a second run's answer is read no later than that after the
--                first run.)
--   resize     a run that takes effect sets KEYS[5] to 1 for a day, and a run that finds it set changes nothing
--                and answers {1}: so a resize sent again after another instance's newer one never undoes it. Its
--                effect, not its answer, is what counts, and Lettuce sends a command again until its own timeout
--                (60 s by default, none when off), far beyond ARGV[3]; resizes are rare, so their records are cheap.
--   cancel, heartbeat and state are safe to run twice as they are (a second cancel finds nothing and says so; its
--   answer is not read).
--
-- Invariants, true between any two runs:
--   used = the sum of the weights of the l:<id> fields of 'meta' (a run that reaps recounts it).
--   'waiters', 'queue' and 'waiterExp' have the same ids; an id is never both a waiter and a lease.
--   A holder's lease is the one under its id with the token it was told; nothing else under its id is held by anyone.
--   waiting = the number of ids in 'queue' (a run that reaps also recounts it, so a drift cannot outlive a lease).
--   Nobody waits while their permits are free: the head of the queue does not fit (used + weight > size), or the
--   queue is empty. Every run that frees permits or changes the size grants the line before it ends.
--   reapAt is at most the earliest expiry of any lease or place in line ('none' when there are none; missing when
--   unknown). So while now < reapAt nothing has expired, and a run skips the reaping altogether.
-- Time is the server's (TIME), never a client's.
--
-- Cost: each redis.call costs about as much as a small command (more than the Lua around it), so the common runs
-- make as few as they can. The leases live in 'meta' itself, so an uncontended acquire makes three (TIME, HMGET of
-- meta with the caller's lease field, HSET of meta with the new lease) and a release with nobody waiting five (TIME,
-- HMGET of meta with the lease's field, HDEL of that field, HSET of meta, SET of the operation's record; comparing the
-- holder's token with the lease's is Lua, no call). The price is paid by the reaping, which reads all of 'meta'
-- (HGETALL): while holders renew (every lease time / 3) that happens at most once per two thirds of a lease time; the
-- leases of an instance that stopped renewing expire together (its last heartbeat gave them one expiry), except those
-- granted after that heartbeat, each of which costs one more reaping. The records of releases are keys of their own
-- that Redis expires: the reaping never reads them.
-- An acquire that takes the general path while somebody waits makes one more call (ZSCORE: is its id in line?).

local meta, queue, waiters, waiterExp, done = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local op, leaseMs = ARGV[1], tonumber(ARGV[3])
if (op == 'release' or op == 'releaseFrom' or op == 'resize') and not done then
    return redis.error_reply(op .. ' needs the key of its operation record (KEYS[5])')
end
local waiterTtlMs = leaseMs

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
-- Fencing tokens and tickets are the next of their counter, but at least the server's time in microseconds: so they
-- keep growing even when 'meta' is lost (a Redis restarted without persistence, a failover that lost the last writes,
-- an eviction), as long as the clocks of the servers that take over agree to within the time a takeover takes. Numbers
-- stay below 2^53, so Lua's doubles hold them exactly; they are written with '%d' (concatenation would use '%.14g').
local nowUs = tonumber(time[1]) * 1000000 + tonumber(time[2])

-- A release reads its own lease with meta's counters, in the same call, and so does an acquire (a lease under its id
-- means it ran before); any other op reads 'size' once more.
local ownLease = (op == 'release' or op == 'acquire') and 'l:' .. ARGV[4] or 'size'
local stored = redis.call('HMGET', meta, 'size', 'used', 'seq', 'fence', 'reapAt', 'waiting', ownLease)
-- The first instance to touch the semaphore (or the first after its keys were lost) sets its size.
local sizeStored = stored[1] ~= false
local size = tonumber(stored[1] or ARGV[2])
local used = tonumber(stored[2] or '0')
local seq = tonumber(stored[3] or '0')
local fence = tonumber(stored[4] or '0')
local waiting = tonumber(stored[6] or '0')
local reapAt = stored[5] -- false (unknown), 'none', or a number as a string
if reapAt and reapAt ~= 'none' then
    reapAt = tonumber(reapAt)
end

-- The common runs take a lean path: an uncontended acquire and a release while nothing may have expired, the size is
-- stored and nobody waits. Each does what the general path below does in that case, but builds no closures and
-- makes only the calls it needs (in Redis's Lua, making the general path's helper closures costs about as much as two
-- calls, and writing every field of meta back one more).
if sizeStored and stored[2] and waiting == 0 and reapAt ~= false and (reapAt == 'none' or now < reapAt) then
    if op == 'acquire' then
        local id, weight = ARGV[4], tonumber(ARGV[5])
        if stored[7] then -- this operation ran before and was granted (nobody waits, so it is not queued)
            return { 1, tonumber(string.match(stored[7], '^%d+ (%d+)')) }
        end
        if used + weight <= size then
            fence = math.max(fence + 1, nowUs)
            local expiry = now + leaseMs
            if reapAt == 'none' or expiry < reapAt then
                reapAt = expiry
            end
            redis.call('HSET', meta, 'used', used + weight, 'fence', fence, 'reapAt', reapAt,
                'l:' .. id, string.format('%d %d %d', weight, fence, expiry))
            return { 1, fence }
        end
    elseif op == 'release' then
        local lease = stored[7]
        if not lease then
            return { redis.call('EXISTS', done) } -- 1: this operation released it before
        end
        redis.call('HDEL', meta, ownLease)
        redis.call('HSET', meta, 'used', used - tonumber(string.match(lease, '^(%d+)')))
        if string.match(lease, '^%d+ (%d+)') ~= ARGV[5] then
            -- a stranger under the id (see "Operation ids"), given back: the holder's lease had expired, unless this
            -- operation released it before (its acquire, sent again too, made the stranger after that)
            return { redis.call('EXISTS', done) }
        end
        redis.call('SET', done, 1, 'PX', leaseMs)
        return { 1 }
    end
end

-- @return weight, token and expiry of a lease entry, as numbers
local function parseLease(value)
    local weight, token, expiry = string.match(value, '^(%d+) (%d+) (%d+)$')
    return tonumber(weight), tonumber(token), tonumber(expiry)
end

-- @return the entry of lease 'id' (false when there is none)
local function leaseEntry(id)
    return redis.call('HGET', meta, 'l:' .. id)
end

-- Every expiry goes through here, so that reapAt stays at most the earliest one.
local function noteExpiry(at)
    if reapAt == false or reapAt == 'none' or at < reapAt then
        reapAt = at
    end
end

local function writeLease(id, weight, token, expiry)
    redis.call('HSET', meta, 'l:' .. id, string.format('%d %d %d', weight, token, expiry))
    noteExpiry(expiry)
end

-- Drops a lease and gives its weight back; 'value' is its entry.
local function dropLease(id, value)
    used = used - parseLease(value)
    redis.call('HDEL', meta, 'l:' .. id)
end

-- 'latest' caps the expiry (nil: none): a waiter's lease runs out when its place would have
local function newLease(id, weight, ms, latest)
    fence = math.max(fence + 1, nowUs)
    writeLease(id, weight, fence, math.min(now + ms, latest or math.huge))
    used = used + weight
    return fence
end

local function expireWaiterAt(id, at)
    redis.call('ZADD', waiterExp, at, id)
    noteExpiry(at)
end

local function dropWaiter(id)
    if redis.call('ZREM', queue, id) == 1 then
        waiting = waiting - 1
    end
    redis.call('HDEL', waiters, id)
    redis.call('ZREM', waiterExp, id)
end

-- Grants the head of the line while it fits, and tells each owner on its channel: "id token", or "id -1" for a
-- request that can never fit any more (the size shrank below it).
local function grantWaiters()
    local channelPrefix = string.sub(meta, 1, -5) .. 'grants:' -- meta is <prefix>meta
    while waiting > 0 do
        local head = redis.call('ZRANGE', queue, 0, 0)[1]
        if not head then
            return
        end
        local details = redis.call('HGET', waiters, head)
        local weight, ms, owner
        if details then
            weight, ms, owner = string.match(details, '^(%d+) (%d+) (.+)$')
            weight = tonumber(weight)
        end
        if not details then
            -- its details were lost ('waiters' evicted or deleted): it leaves the line, as a place that expired
            -- would (its owner's renewal finds it gone), rather than fail every run that grants
            dropWaiter(head)
        elseif weight > size then
            dropWaiter(head)
            redis.call('PUBLISH', channelPrefix .. owner, head .. ' -1')
        elseif used + weight <= size then
            -- The lease runs to the place's expiry, lease time after its owner's last renewal, the last sign of life
            -- it gave (and what the owner counts as confirmed): a waiter that died just before its turn must not
            -- hold the permits for up to twice the lease time. Places here have not expired: those that had were
            -- reaped before any grant of this run.
            local placeExpiry = tonumber(redis.call('ZSCORE', waiterExp, head))
            dropWaiter(head)
            local token = newLease(head, weight, tonumber(ms), placeExpiry)
            redis.call('PUBLISH', channelPrefix .. owner, string.format('%s %d', head, token))
        else
            return
        end
    end
end

-- 1. reap leases and waiters whose owner stopped renewing them, when one may have expired; recount the permits in
--    use and the line; learn the next expiry; grant the line (permits freed here, a size stored anew or a count that
--    was wrong may let it move). While anybody holds or waits, this runs at least once per lease time, as their
--    renewals pass reapAt.
local reaped = false
if reapAt == false or (reapAt ~= 'none' and now >= reapAt) then
    reaped = true
    local all = redis.call('HGETALL', meta)
    local nextExpiry = math.huge
    used = 0
    for i = 1, #all, 2 do
        if string.sub(all[i], 1, 2) == 'l:' then
            local weight, _, expiry = parseLease(all[i + 1])
            if expiry <= now then
                redis.call('HDEL', meta, all[i])
            else
                used = used + weight
                nextExpiry = math.min(nextExpiry, expiry)
            end
        end
    end
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', waiterExp, '-inf', now)) do
        dropWaiter(id)
    end
    waiting = redis.call('ZCARD', queue)
    local nextWaiter = redis.call('ZRANGE', waiterExp, 0, 0, 'WITHSCORES')[2]
    nextExpiry = math.min(nextExpiry, tonumber(nextWaiter or math.huge))
    reapAt = nextExpiry == math.huge and 'none' or nextExpiry
    grantWaiters()
elseif not sizeStored then
    grantWaiters()
end

local result
if op == 'acquire' then
    -- ARGV 4 id, 5 weight, 6 'wait' or 'try'
    -- -> {1, token} granted, {2, ticket} queued, {0} refused (try), {-2} larger than size
    local id, weight = ARGV[4], tonumber(ARGV[5])
    local lease = stored[7]
    if reaped then
        lease = leaseEntry(id)
    end
    local ticket = waiting > 0 and redis.call('ZSCORE', queue, id)
    if lease then -- this operation ran before: granted (see "Operation ids")
        local _, token = parseLease(lease)
        result = { 1, token }
    elseif ticket then -- this operation ran before: queued
        result = { 2, tonumber(ticket) }
    elseif weight > size then
        result = { -2 }
    elseif used + weight <= size and waiting == 0 then
        result = { 1, newLease(id, weight, leaseMs) }
    elseif ARGV[6] == 'try' then
        result = { 0 }
    else
        seq = math.max(seq + 1, nowUs)
        redis.call('ZADD', queue, seq, id)
        waiting = waiting + 1
        redis.call('HSET', waiters, id, string.format('%d %d %s', weight, leaseMs, string.match(id, '^(.*):')))
        expireWaiterAt(id, now + waiterTtlMs)
        result = { 2, seq }
    end
elseif op == 'release' then
    -- ARGV 4 id, 5 the token its holder knows -> {1} released (by this run or, as its record says, an earlier run
    -- of this operation), {0} no such lease (expired and reaped, or never granted; or another token: a stranger
    -- under the id, given back)
    local id = ARGV[4]
    local value = stored[7]
    if reaped then
        value = leaseEntry(id)
    end
    if value then
        local _, token = parseLease(value)
        dropLease(id, value)
        grantWaiters()
        if token == tonumber(ARGV[5]) then
            redis.call('SET', done, 1, 'PX', leaseMs)
            result = { 1 }
        else
            result = { redis.call('EXISTS', done) } -- as above: 1 when this operation released it before
        end
    else
        if redis.call('HEXISTS', waiters, id) == 1 then
            -- a place in line under the holder's id, queued anew by its acquire sent again (see "Operation ids"):
            -- nobody's, it leaves the line
            dropWaiter(id)
            grantWaiters()
        end
        result = { redis.call('EXISTS', done) } -- 1: this operation released it before
    end
elseif op == 'releaseFrom' then
    -- ARGV 4.. quadruples (id, weight, token, amount): take 'amount' off each lease, all or nothing, where each
    -- lease must still hold the 'weight' and 'token' its owner knows of. So a run that comes twice (the owner sent it
    -- again after a timeout, or Lettuce re-sent it after a reconnect) finds its leases changed by the first and changes
    -- nothing: a release is never applied twice; and a second run of the same operation (same op id) answers {1}, as
    -- its first.
    -- -> {1} done, {0, id} that lease is gone, holds another weight or token, or less than asked of it (none of the
    --    holder's leases changed; a stranger under that id, a place in line or another token, is given back, as by
    --    release: see "Operation ids")
    local asked = {} -- id -> the sum of the amounts asked of it, should an id come twice
    for i = 4, #ARGV, 4 do
        local id, known = ARGV[i], tonumber(ARGV[i + 1])
        asked[id] = (asked[id] or 0) + tonumber(ARGV[i + 3])
        local value = leaseEntry(id)
        local weight, token
        if value then
            weight, token = parseLease(value)
        end
        if not value or weight ~= known or known < asked[id] or token ~= tonumber(ARGV[i + 2]) then
            result = { 0, id }
            if value and token ~= tonumber(ARGV[i + 2]) then
                dropLease(id, value)
                grantWaiters()
            elseif not value and redis.call('HEXISTS', waiters, id) == 1 then
                dropWaiter(id)
                grantWaiters()
            end
            break
        end
    end
    if result and redis.call('EXISTS', done) == 1 then
        result = { 1 } -- this operation ran before and took effect
    elseif not result then
        for i = 4, #ARGV, 4 do
            local id, amount = ARGV[i], tonumber(ARGV[i + 3])
            local value = leaseEntry(id)
            local weight, token, expiry = parseLease(value)
            if weight == amount then
                dropLease(id, value)
            else
                writeLease(id, weight - amount, token, expiry)
                used = used - amount
            end
        end
        grantWaiters()
        redis.call('SET', done, 1, 'PX', leaseMs)
        result = { 1 }
    end
elseif op == 'cancel' then
    -- ARGV 4 id: withdraw a request; a grant that won the race is given back
    -- -> {0} withdrawn from the line, {1} it had been granted and is now released, {-1} unknown (expired)
    local id = ARGV[4]
    local value
    if redis.call('HEXISTS', waiters, id) == 1 then
        dropWaiter(id)
        grantWaiters()
        result = { 0 }
    else
        value = leaseEntry(id)
        if value then
            dropLease(id, value)
            grantWaiters()
            result = { 1 }
        else
            result = { -1 }
        end
    end
elseif op == 'heartbeat' then
    -- ARGV 4 number of leases L, then L pairs (lease id, the token its holder knows), then waiter ids
    -- -> {lost lease ids, {granted waiter id, token}..., gone waiter ids, size} (a gone waiter larger than the size
    --    was dropped as one that can never fit, its "-1" message maybe lost)
    local leaseCount = tonumber(ARGV[4])
    local lost, granted, gone = {}, {}, {}
    local strangers = false
    for i = 5, 4 + 2 * leaseCount, 2 do
        local id = ARGV[i]
        local value = leaseEntry(id)
        local weight, token
        if value then
            weight, token = parseLease(value)
        end
        if token == tonumber(ARGV[i + 1]) then
            writeLease(id, weight, token, now + leaseMs)
        else
            -- expired; a stranger under its id (see "Operation ids"), nobody's, is given back, or leaves the line
            table.insert(lost, id)
            if value then
                dropLease(id, value)
                strangers = true
            elseif redis.call('HEXISTS', waiters, id) == 1 then
                dropWaiter(id)
                strangers = true
            end
        end
    end
    if strangers then
        grantWaiters()
    end
    local lineLost = false
    for i = 5 + 2 * leaseCount, #ARGV do
        local id = ARGV[i]
        local placed = redis.call('HEXISTS', waiters, id) == 1
        if placed and redis.call('ZSCORE', queue, id) then
            expireWaiterAt(id, now + waiterTtlMs)
        else
            if placed then
                dropWaiter(id) -- details without a place in line (the queue was lost): it would never be granted
                lineLost = true
            end
            local value = leaseEntry(id)
            if value then
                local _, token = parseLease(value)
                table.insert(granted, id)
                table.insert(granted, token)
            else
                table.insert(gone, id)
            end
        end
    end
    if lineLost then
        waiting = redis.call('ZCARD', queue) -- the count was of the lost line: recount now, not at the next reap
        grantWaiters()
    end
    result = { lost, granted, gone, size }
elseif op == 'resize' then
    -- ARGV 4 new size -> {1}; a second run of the same operation changes nothing (see "Operation ids")
    if redis.call('EXISTS', done) == 0 then
        local shrinks = tonumber(ARGV[4]) < size
        size = tonumber(ARGV[4])
        if shrinks and waiting > 0 then
            -- every waiter larger than the new size can never be granted: it fails now, wherever it stands in line
            -- ("id -1", as grantWaiters tells the head), not only when it reaches the head
            local channelPrefix = string.sub(meta, 1, -5) .. 'grants:'
            for _, id in ipairs(redis.call('ZRANGE', queue, 0, -1)) do
                local details = redis.call('HGET', waiters, id)
                local weight, _, owner = string.match(details or '', '^(%d+) (%d+) (.+)$')
                if weight and tonumber(weight) > size then
                    dropWaiter(id)
                    redis.call('PUBLISH', channelPrefix .. owner, id .. ' -1')
                end
            end
        end
        grantWaiters()
        redis.call('SET', done, 1, 'PX', math.max(leaseMs, 86400000)) -- a day: see "Operation ids"
    end
    result = { 1 }
elseif op == 'state' then
    -- -> {size, used, waiting}. A read that neither stored the size nor reaped changed nothing, so it writes nothing:
    -- gauges read the state often, and under 'appendfsync always' every write is a disk flush.
    result = { size, used, redis.call('ZCARD', queue) }
    if sizeStored and not reaped then
        return result
    end
else
    return redis.error_reply('unknown op ' .. tostring(op))
end

redis.call('HSET', meta, 'size', size, 'used', used, 'seq', seq, 'fence', fence, 'waiting', waiting, 'reapAt', reapAt)
return result
