// Why generation stopped, in one vocabulary. Each adapter maps its upstream's reasons with a table.

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | 'other'
