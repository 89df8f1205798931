// A daily series as an SVG column chart: one column per day, the largest value labelled on the axis.
// Plain SVG keeps the console free of a chart dependency; it scales with its container.
export interface DailyPoint {
  readonly date: string
  readonly value: number
}

interface DailyChartProps {
  readonly title: string
  readonly points: readonly DailyPoint[]
  readonly format: (value: number) => string
}

const width = 600
const height = 200
const left = 8
const bottom = 22

export function DailyChart({ title, points, format }: DailyChartProps) {
  const max = Math.max(0, ...points.map((point) => point.value))
  const slot = (width - left * 2) / Math.max(1, points.length)
  const plot = height - bottom - 16
  return (
    <figure class="chart">
      <figcaption>
        {title} <span class="muted">(max {format(max)} a day)</span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title}>
        <line x1={left} x2={width - left} y1={height - bottom} y2={height - bottom} class="axis" />
        {points.map((point, index) => {
          const barHeight = max === 0 ? 0 : (point.value / max) * plot
          return (
            <rect
              key={point.date}
              x={left + index * slot + slot * 0.15}
              y={height - bottom - barHeight}
              width={slot * 0.7}
              height={barHeight}
              class="column"
            >
              <title>{`${point.date}: ${format(point.value)}`}</title>
            </rect>
          )
        })}
        {points.length > 0 && (
          <>
            <text x={left} y={height - 6} class="tick">
              {points[0]!.date}
            </text>
            <text x={width - left} y={height - 6} class="tick" text-anchor="end">
              {points[points.length - 1]!.date}
            </text>
          </>
        )}
      </svg>
    </figure>
  )
}
