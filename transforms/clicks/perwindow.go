package clicks

import (
	"reflect"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph/window"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// WindowCount is one user's clicks in one event-time window: the rows
// (Clicks) and the sum of their click_count.
type WindowCount struct {
	UserID string `beam:"user_id"`
	// Start is the window's start, microseconds since the epoch.
	Start      int64 `beam:"window_start" iceberg:"timestamptz"`
	Clicks     int64 `beam:"clicks"`
	ClickCount int64 `beam:"click_count"`
}

// PerWindow counts clicks per user in fixed event-time windows of size
// (time.Minute for clicks_per_minute). Each window's counts are emitted once,
// when the watermark passes its end; clicks later than that are dropped, as
// Beam's default trigger does.
func PerWindow(s beam.Scope, size time.Duration, clicks beam.PCollection) beam.PCollection {
	s = s.Scope("clicks.PerWindow")
	windowed := beam.WindowInto(s, window.NewFixedWindows(size), clicks)
	keyed := beam.ParDo(s, toTally, windowed)
	summed := beam.CombinePerKey(s, addTallies, keyed)
	return beam.ParDo(s, toWindowCount, summed)
}

// tally is the running count of one user's clicks in a window.
type tally struct {
	Clicks     int64
	ClickCount int64
}

func toTally(c Click) (string, tally) { return c.UserID, tally{Clicks: 1, ClickCount: c.ClickCount} }

func addTallies(a, b tally) tally {
	return tally{Clicks: a.Clicks + b.Clicks, ClickCount: a.ClickCount + b.ClickCount}
}

func toWindowCount(w beam.Window, user string, t tally) WindowCount {
	start := w.(window.IntervalWindow).Start.ToTime()
	return WindowCount{UserID: user, Start: start.UnixMicro(), Clicks: t.Clicks, ClickCount: t.ClickCount}
}

func init() {
	register.Function1x2(toTally)
	register.Function2x1(addTallies)
	register.Function3x1(toWindowCount)
	beam.RegisterType(reflect.TypeOf(tally{}))
	beam.RegisterType(reflect.TypeOf(WindowCount{}))
}
